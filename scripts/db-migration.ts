// npm run db:migration -- <name>
// Writes prisma/migrations/<timestamp>_<name>/migration.sql with what the
// schema changed since the last migration.
import path from "node:path";
import { createMigration, isValidMigrationName } from "@/lib/db/migrate";
import { describeFailure } from "@/lib/db/describe-failure";

const USAGE = "Usage: npm run db:migration -- <name>   (lowercase letters, digits and underscores)";

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || rest.length > 0 || !isValidMigrationName(name)) {
    process.stderr.write(`${name ? `Invalid migration name "${argv.join(" ")}".\n` : ""}${USAGE}\n`);
    return 2;
  }
  const created = await createMigration(name);
  if (!created) {
    process.stdout.write("No schema changes\n");
    return 0;
  }
  process.stdout.write(`Created ${path.relative(process.cwd(), created.path)}\n`);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`db:migration failed: ${describeFailure(error)}\n`);
    process.exit(1);
  },
);
