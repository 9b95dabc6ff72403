/**
 * One line for a command-line tool to print about a failed database command:
 * no stack or engine backtrace, and never the password of `databaseUrl`.
 */
export function describeFailure(error: unknown, databaseUrl?: string): string {
  const message = error instanceof Error ? error.message : String(error);
  const oneLine = stripEngineBacktrace(message)
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "")
    .join(" ");
  return redactPassword(oneLine, databaseUrl) || "unknown error";
}

// Schema engine errors end with a Rust span trace ("   0: schema_engine_wasm::…").
function stripEngineBacktrace(message: string): string {
  const trace = /\n\s*0: [a-z_]+::/.exec(message);
  return trace ? message.slice(0, trace.index) : message;
}

function redactPassword(text: string, databaseUrl: string | undefined): string {
  const password = passwordOf(databaseUrl);
  if (!password) return text;
  let redacted = text;
  for (const form of new Set([password, safeDecode(password)])) {
    if (form) redacted = redacted.split(form).join("***");
  }
  return redacted;
}

function passwordOf(databaseUrl: string | undefined): string {
  if (!databaseUrl) return "";
  try {
    return new URL(databaseUrl).password;
  } catch {
    // Unparseable: fall back to the text between "user:" and "@".
    return /^[a-z][a-z0-9+.-]*:\/\/[^:/@]*:([^@]*)@/i.exec(databaseUrl)?.[1] ?? "";
  }
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
