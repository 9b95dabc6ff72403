// npm run db:migrate
// Applies pending migrations from prisma/migrations to DATABASE_URL.
import { parseDatabaseUrl } from "@/lib/db/config";
import { migrateDatabaseTarget } from "@/lib/db/migrate";
import { describeFailure } from "@/lib/db/describe-failure";
import { getEnv } from "@/lib/env";

async function main(): Promise<number> {
  const databaseUrl = getEnv().DATABASE_URL;
  try {
    const { applied } = await migrateDatabaseTarget(parseDatabaseUrl(databaseUrl));
    if (applied.length === 0) process.stdout.write("Database is up to date\n");
    for (const name of applied) process.stdout.write(`Applied ${name}\n`);
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
