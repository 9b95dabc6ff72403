import { z } from "zod";

/** The test run's own settings, validated like the app's. */
const ZTestEnvSchema = z.object({
  /**
   * A PostgreSQL database the tests may connect to and CREATE/DROP their own databases from.
   * Unset: the run starts the embedded PostgreSQL server and sets it (tests/helpers/database-templates.ts).
   */
  TEST_DATABASE_URL: z.preprocess((v) => (v === "" ? undefined : v), z.string().regex(/^postgres(ql)?:\/\//).optional()),
  /** Reuse an existing `.next` production build instead of building once per run. */
  TEST_SKIP_BUILD: z.preprocess((v) => v === "1" || v === "true", z.boolean()),
  /** Run the app of every PostgreSQL stack through a PgBouncer in transaction mode, as on a serverless host. */
  TEST_PGBOUNCER: z.preprocess((v) => v === "1" || v === "true", z.boolean()),
});

export const testEnv = ZTestEnvSchema.parse(process.env);

export type TestDbKind = "pglite" | "postgres";

/**
 * The data layer and the routes run on PostgreSQL, the embedded database's engine as
 * every deployment's. PGlite (`pglite:` URLs) stays for the tests that ask for it by name.
 */
export const TEST_DB_KINDS: TestDbKind[] = ["postgres"];
