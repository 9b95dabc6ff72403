import path from "node:path";

/** Where the notes live: the embedded PGlite (on disk, or in memory when `dataDir` is null) or a PostgreSQL server. */
export type DatabaseTarget = { kind: "pglite"; dataDir: string | null } | { kind: "postgres"; url: string };

const DEFAULT_PGLITE_DIR = path.join(".data", "pglite");
const PGLITE_PREFIX = "pglite:";

/**
 * Reads `DATABASE_URL`. Unset or empty: the embedded database in `<cwd>/.data/pglite`.
 * `pglite:memory` keeps it in memory; `pglite:<dir>` stores it in `<dir>` (relative to `cwd`).
 */
export function parseDatabaseUrl(url: string | undefined, cwd = process.cwd()): DatabaseTarget {
  const value = url?.trim() ?? "";
  if (value === "") return { kind: "pglite", dataDir: path.resolve(cwd, DEFAULT_PGLITE_DIR) };

  if (value.startsWith(PGLITE_PREFIX)) {
    const location = value.slice(PGLITE_PREFIX.length);
    if (location === "memory") return { kind: "pglite", dataDir: null };
    if (location === "") throw new Error('DATABASE_URL "pglite:" needs a directory, e.g. pglite:.data/pglite, or pglite:memory');
    return { kind: "pglite", dataDir: path.resolve(cwd, location) };
  }

  if (/^postgres(ql)?:\/\//i.test(value)) return { kind: "postgres", url: value };

  throw new Error(
    `DATABASE_URL must start with postgres://, postgresql:// or pglite: (got ${describeScheme(value)})`,
  );
}

// The rejected value may be a mistyped URL with a password in it, so only its scheme is shown.
function describeScheme(value: string): string {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(value)?.[1];
  return scheme ? `a "${scheme}:" URL` : "a value without a scheme";
}
