/**
 * Secrets (API keys, passwords) come in on stdin or from a prompt, never as
 * command-line arguments: npm echoes its arguments, shell history keeps them
 * and any process on the machine can read them from the process list.
 */

/** Everything piped into stdin, without the trailing newline that `echo` and here-strings add. */
export async function readAllStdin(stdin: NodeJS.ReadStream = process.stdin): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8").replace(/\r?\n$/, "");
}

/**
 * Asks for a secret on the terminal without echoing it. Ctrl-C aborts the
 * command (exit 130), Ctrl-D ends the input as Enter does.
 */
export async function promptSecret(question: string, stdin: NodeJS.ReadStream = process.stdin, out: NodeJS.WriteStream = process.stderr): Promise<string> {
  out.write(question);
  stdin.setRawMode(true);
  stdin.resume();
  stdin.setEncoding("utf8");
  try {
    return await new Promise<string>((resolve) => {
      let value = "";
      const onData = (text: string) => {
        for (const char of text) {
          if (char === "\r" || char === "\n" || char === "\u0004") {
            stdin.off("data", onData);
            resolve(value);
            return;
          }
          if (char === "\u0003") {
            out.write("\n");
            process.exit(130);
          }
          if (char === "\u007f" || char === "\b") value = value.slice(0, -1);
          else if (char >= " ") value += char;
        }
      };
      stdin.on("data", onData);
    });
  } finally {
    stdin.setRawMode(false);
    stdin.pause();
    out.write("\n");
  }
}

/** The secret from a prompt when stdin is a terminal, else from stdin. */
export function readSecret(question: string): Promise<string> {
  return process.stdin.isTTY ? promptSecret(question) : readAllStdin();
}
