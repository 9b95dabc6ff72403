import path from "node:path";

/**
 * Where the notes live: a PostgreSQL server; the embedded PostgreSQL server
 * in `dir`, which `npm run dev`, `npm start` and the other scripts start
 * themselves (scripts/lib/database.ts) and hand to the app as a PostgreSQL
 * URL; or PGlite in this process (on disk, or in memory when `dataDir` is null).
 */
export type DatabaseTarget =
  | { kind: "embedded"; dir: string }
  | { kind: "pglite"; dataDir: string | null }
  | {
      kind: "postgres";
      url: string;
      /**
       * Set by `?pgbouncer=true` on the URL: connections go through a
       * transaction-mode pooler (PgBouncer, a serverless host's pooled
       * endpoint), so session state cannot be relied on and the time bounds
       * are set per transaction instead of per connection.
       */
      transactionPooler?: true;
    };

/** The embedded server's folder, inside the data folder (`.data`, or NOTES_DATA_DIR for `npm run dev`). */
export const EMBEDDED_DIR_NAME = "postgres";
/** Where the embedded database lived before it was PostgreSQL's own server; its notes are moved over on the next start. */
export const OLD_PGLITE_DIR_NAME = "pglite";
const PGLITE_PREFIX = "pglite:";

/**
 * Reads `DATABASE_URL`. Unset or empty: the embedded PostgreSQL server in `<dataDir>/postgres`
 * (`dataDir` relative to `cwd`). `pglite:memory` keeps a PGlite database in memory;
 * `pglite:<dir>` stores it in `<dir>` (relative to `cwd`).
 */
export function parseDatabaseUrl(url: string | undefined, cwd = /*turbopackIgnore: true*/ process.cwd(), dataDir = ".data"): DatabaseTarget {
  const value = url?.trim() ?? "";
  // Resolved at run time against the working directory: the build must not
  // trace (and so ship) the local database in it.
  if (value === "") return { kind: "embedded", dir: path.resolve(/*turbopackIgnore: true*/ cwd, dataDir, EMBEDDED_DIR_NAME) };

  if (value.startsWith(PGLITE_PREFIX)) {
    const location = value.slice(PGLITE_PREFIX.length);
    if (location === "memory") return { kind: "pglite", dataDir: null };
    if (location === "") throw new Error('DATABASE_URL "pglite:" needs a directory, e.g. pglite:.data/pglite, or pglite:memory');
    return { kind: "pglite", dataDir: path.resolve(/*turbopackIgnore: true*/ cwd, location) };
  }

  if (/^postgres(ql)?:\/\//i.test(value)) return parsePostgresUrl(value);

  throw new Error(
    `DATABASE_URL must start with postgres://, postgresql:// or pglite: (got ${describeScheme(value)})`,
  );
}

// The rejected value may be a mistyped URL with a password in it, so only its scheme is shown.
function describeScheme(value: string): string {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(value)?.[1];
  return scheme ? `a "${scheme}:" URL` : "a value without a scheme";
}

const POOLER_PARAM = "pgbouncer";

// `pgbouncer=true` is the switch Prisma users know; it is taken off the URL
// handed to the driver, which would otherwise pass it on as a setting.
function parsePostgresUrl(value: string): DatabaseTarget {
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    return { kind: "postgres", url: value };
  }
  const flag = parsed.searchParams.get(POOLER_PARAM);
  if (flag === null) return { kind: "postgres", url: value };
  parsed.searchParams.delete(POOLER_PARAM);
  const url = parsed.toString();
  return flag === "true" || flag === "1" ? { kind: "postgres", url, transactionPooler: true } : { kind: "postgres", url };
}

/**
 * The embedded server is started by the scripts, which then give the app its
 * URL: a process reaching for it without one was started some other way.
 */
export function embeddedNotStarted(target: Extract<DatabaseTarget, { kind: "embedded" }>): Error {
  return new Error(
    `DATABASE_URL is unset, and the embedded database (${target.dir}) is started by npm run dev and npm start: run one of them, or set DATABASE_URL`,
  );
}
