// npm run users -- add <email> [--password | --password-stdin] [--name N] | remove <email> | list
// Manages local accounts: the API never creates them on its own.
import { parseArgs } from "node:util";
import { readAllStdin, promptSecret } from "@/identity/secret-input";
import { openDatabase } from "./lib/database";
import { createDb } from "@/lib/db/client";
import { parseDatabaseUrl } from "@/lib/db/config";
import { getEnv } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { createUser, eraseUserByEmail } from "@/lib/users/mutations";
import { listUsers } from "@/lib/users/queries";
import { findRunningDevApp, runningDevAppClient } from "./lib/dev-admin-client";

const USAGE = `Usage:
  npm run users -- add <email> [--password | --password-stdin] [--name <name>]
  npm run users -- remove <email>
  npm run users -- list

  --password          ask for a browser password (input hidden)
  --password-stdin    read the browser password from stdin: … | npm run users -- add <email> --password-stdin

remove erases the account and everything of it at once: notes, trash, tags,
sessions, sign-in methods, idempotency records and rate-limit counters.

Works while npm run dev runs: the command then goes through the running app.`;

class UsageError extends Error {}

type Command = { kind: "add"; email: string; password?: string; name?: string } | { kind: "remove"; email: string } | { kind: "list" };

async function parseCommand(argv: string[]): Promise<Command | "help"> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      password: { type: "boolean" },
      "password-stdin": { type: "boolean" },
      name: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  const [command, email, extra] = positionals;
  if (values.help) return "help";
  if (!command) throw new UsageError("A command is required.");
  if (command === "list") return { kind: "list" };
  if (command === "remove") {
    if (extra !== undefined || values.password || values["password-stdin"] || values.name !== undefined) throw new UsageError("remove takes one email and no options.");
    if (!email || !/^[^\s@]+@[^\s@]+$/.test(email)) throw new UsageError("A valid email is required.");
    return { kind: "remove", email };
  }
  if (command !== "add") throw new UsageError(`Unknown command "${command}".`);
  // `--password P` of old: the P lands here, and in shell history. Refuse it without echoing it.
  if (extra !== undefined) throw new UsageError("Passwords are read from a prompt (--password) or stdin (--password-stdin), never from the command line.");
  if (!email || !/^[^\s@]+@[^\s@]+$/.test(email)) throw new UsageError("A valid email is required.");
  let password: string | undefined;
  if (values.password && values["password-stdin"]) throw new UsageError("Give --password or --password-stdin, not both.");
  if (values["password-stdin"]) password = await readAllStdin();
  if (values.password) {
    if (!process.stdin.isTTY) throw new UsageError("--password asks on a terminal; to pipe the password in, use --password-stdin.");
    password = await promptSecret("Browser password (input hidden): ");
    if (password !== (await promptSecret("Again: "))) throw new UsageError("The passwords differ.");
  }
  if (password !== undefined && password.length === 0) throw new UsageError("The password is empty.");
  return { kind: "add", email, password, name: values.name };
}

async function main(argv: string[]): Promise<number> {
  let command: Command | "help";
  try {
    command = await parseCommand(argv);
  } catch (error) {
    if (!(error instanceof UsageError) && !(error as NodeJS.ErrnoException).code?.startsWith("ERR_PARSE_ARGS")) throw error;
    process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
    return 2;
  }
  if (command === "help") {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }

  const target = parseDatabaseUrl(getEnv().DATABASE_URL, process.cwd(), getEnv().NOTES_DATA_DIR);
  // While `npm run dev` runs on this embedded database, the database is its
  // app's (even before the app first opens it): ask the app to do it.
  const running = await findRunningDevApp(target);
  if (running) {
    process.stderr.write(`npm run dev (pid ${running.pid}) is running on this database; going through its app.\n`);
    return runCommand(command, runningDevAppClient(running));
  }
  const database = await openDatabase(getEnv().DATABASE_URL, target, (line) => process.stderr.write(`${line}\n`));
  try {
    const handle = await createDb(database.target, { poolMax: 1 });
    try {
      return await runCommand(command, {
        addUser: (input) => createUser(handle.db, input),
        removeUser: (email) => eraseUserByEmail(handle.db, email),
        listUsers: () => listUsers(handle.db),
      });
    } finally {
      await handle.close();
    }
  } finally {
    await database.stop();
  }
}

type Accounts = {
  addUser(input: { email: string; password?: string; name?: string }): Promise<{ id: string; email: string }>;
  removeUser(email: string): Promise<{ id: string; email: string }>;
  listUsers(): Promise<unknown[]>;
};

async function runCommand(command: Command, accounts: Accounts): Promise<number> {
  if (command.kind === "add") {
    const user = await accounts.addUser({ email: command.email, password: command.password, name: command.name });
    process.stdout.write(`${JSON.stringify({ id: user.id, email: user.email })}\n`);
  } else if (command.kind === "remove") {
    const user = await accounts.removeUser(command.email);
    process.stdout.write(`${JSON.stringify({ removed: { id: user.id, email: user.email } })}\n`);
  } else {
    for (const user of await accounts.listUsers()) process.stdout.write(`${JSON.stringify(user)}\n`);
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    const message = err instanceof AppError ? err.userMessage : err instanceof Error ? err.message : String(err);
    process.stderr.write(`${message}\n`);
    process.exit(1);
  },
);
