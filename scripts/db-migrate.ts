// npm run db:migrate
// Applies pending migrations from prisma/migrations to DATABASE_URL (unset: the
// embedded database, started for the migration and stopped after it).
import { parseDatabaseUrl } from "@/lib/db/config";
import { migrateDatabaseTarget } from "@/lib/db/migrate";
import { describeFailure } from "@/lib/db/describe-failure";
import { getEnv } from "@/lib/env";
import { openDatabase } from "./lib/database";

async function main(): Promise<number> {
  const databaseUrl = getEnv().DATABASE_URL;
  try {
    const database = await openDatabase(databaseUrl, parseDatabaseUrl(databaseUrl, process.cwd(), getEnv().NOTES_DATA_DIR), (line) => process.stdout.write(`${line}\n`));
    try {
      const { applied } = await migrateDatabaseTarget(database.target);
      if (applied.length === 0) process.stdout.write("Database is up to date\n");
      for (const name of applied) process.stdout.write(`Applied ${name}\n`);
    } finally {
      await database.stop();
    }
    return 0;
  } catch (error) {
    process.stderr.write(`db:migrate failed: ${describeFailure(error, databaseUrl)}\n`);
    return 1;
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`db:migrate failed: ${describeFailure(error)}\n`);
    process.exit(1);
  },
);
