import { getEnv } from "@/lib/env";

/**
 * One-line JSON logs on stderr. Callers pass facts, never secrets: no tokens,
 * keys or passwords go into a field.
 */
type Fields = Record<string, unknown>;

function write(level: "info" | "warn" | "error", event: string, fields: Fields = {}): void {
  if (level === "info" && getEnv().LOG_LEVEL === "silent") return;
  const line = JSON.stringify({ level, time: new Date().toISOString(), event, ...fields });
  process.stderr.write(line + "\n");
}

export const log = {
  info: (event: string, fields?: Fields) => write("info", event, fields),
  warn: (event: string, fields?: Fields) => write("warn", event, fields),
  error: (event: string, fields?: Fields) => write("error", event, fields),
};
