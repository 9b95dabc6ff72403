import pg from "pg";

/** The PostgreSQL server the benchmarks create their own databases on. */
export const DEFAULT_ADMIN_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

export type BenchDatabase = {
  /** The connection URL of the database itself. */
  url: string;
  /** True when `reuse` found it already there (nothing was created). */
  reused: boolean;
  drop(): Promise<void>;
};

/**
 * A database named `name` on the server `adminUrl` connects to: dropped and
 * created afresh, or, with `reuse`, kept as it is when it exists.
 */
export async function createBenchDatabase(adminUrl: string, name: string, options: { reuse?: boolean } = {}): Promise<BenchDatabase> {
  const exists = (await adminQuery(adminUrl, "SELECT 1 FROM pg_database WHERE datname = $1", [name])).rowCount === 1;
  const reused = exists && Boolean(options.reuse);
  if (!reused) {
    if (exists) await adminQuery(adminUrl, `DROP DATABASE ${name} WITH (FORCE)`);
    await adminQuery(adminUrl, `CREATE DATABASE ${name}`);
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), reused, drop: async () => void (await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)) };
}

async function adminQuery(adminUrl: string, text: string, params: unknown[] = []): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await client.query(text, params);
  } finally {
    await client.end();
  }
}
