// npm run users -- add <email> [--password P] [--name N] | list
// Manages local accounts: the API never creates them on its own.
import { parseArgs } from "node:util";
import { createDb } from "@/lib/db/client";
import { parseDatabaseUrl } from "@/lib/db/config";
import { getEnv } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { createUser } from "@/lib/users/mutations";
import { listUsers } from "@/lib/users/queries";

const USAGE = `Usage:
  npm run users -- add <email> [--password <password>] [--name <name>]
  npm run users -- list`;

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { password: { type: "string" }, name: { type: "string" }, help: { type: "boolean", short: "h" } },
  });
  const [command, email] = positionals;
  if (values.help || !command) {
    process.stdout.write(`${USAGE}\n`);
    return values.help ? 0 : 2;
  }
  if (command === "add" && (!email || !/^[^\s@]+@[^\s@]+$/.test(email))) {
    process.stderr.write(`A valid email is required.\n${USAGE}\n`);
    return 2;
  }
  if (command !== "add" && command !== "list") {
    process.stderr.write(`Unknown command "${command}".\n${USAGE}\n`);
    return 2;
  }

  const handle = await createDb(parseDatabaseUrl(getEnv().DATABASE_URL), { poolMax: 1 });
  try {
    if (command === "add") {
      const user = await createUser(handle.db, { email: email!, password: values.password, name: values.name });
      process.stdout.write(`${JSON.stringify({ id: user.id, email: user.email })}\n`);
    } else {
      const users = await listUsers(handle.db);
      for (const user of users) process.stdout.write(`${JSON.stringify(user)}\n`);
    }
    return 0;
  } finally {
    await handle.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    const message = err instanceof AppError ? err.userMessage : err instanceof Error ? err.message : String(err);
    process.stderr.write(`${message}\n`);
    process.exit(1);
  },
);
