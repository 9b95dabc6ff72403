/** A mistake in the command line itself: exit code 2 and a pointer to --help. */
export class UsageError extends Error {}

/**
 * Runs a command-line tool on this process's arguments and sets its exit
 * code: 2 for a usage error, 1 for any other failure. Failures are one line
 * on stderr, prefixed with the tool's name; the errors the tools throw carry
 * messages written for the person at the terminal.
 */
export async function runCli(name: string, run: (argv: string[]) => Promise<number>): Promise<void> {
  try {
    process.exitCode = await run(process.argv.slice(2));
  } catch (err) {
    if (err instanceof UsageError || (err as NodeJS.ErrnoException).code?.startsWith("ERR_PARSE_ARGS")) {
      console.error(`${name}: ${(err as Error).message}\nRun with --help for usage.`);
      process.exitCode = 2;
    } else {
      console.error(`${name}: ${err instanceof Error ? err.message : String(err)}`);
      process.exitCode = 1;
    }
  }
}
