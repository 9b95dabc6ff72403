import { accessSync, constants } from "node:fs";
import path from "node:path";

/**
 * Programs the suite may use but `npm ci` does not install (Debian's
 * chromium, pgbouncer, …). A test that needs one asks here and skips with
 * the message when it is missing, so `npm test` on a fresh machine stays
 * green and says what was not covered.
 */
export type SystemBinary = { name: string; path: string } | { name: string; path: null; missing: string };

/**
 * The first executable named `name` in the given directories (default: PATH
 * plus the usual sbin directories, where Debian puts daemons like pgbouncer).
 * `<NAME>_PATH` in the environment overrides the search; setting it to an empty
 * string hides the program, to try the fresh-machine path on a machine that has it.
 */
export function findSystemBinary(name: string, options: { dirs?: string[]; install?: string } = {}): SystemBinary {
  const override = process.env[envName(name)];
  const install = options.install ?? `apt-get install ${name}`;
  if (override !== undefined) {
    if (override !== "" && isExecutable(override)) return { name, path: override };
    return { name, path: null, missing: `${name} is hidden or not found (${envName(name)}=${JSON.stringify(override)})` };
  }
  const dirs = options.dirs ?? [...(process.env.PATH ?? "").split(path.delimiter).filter(Boolean), "/usr/sbin", "/usr/local/sbin", "/sbin"];
  for (const dir of dirs) {
    const candidate = path.join(dir, name);
    if (isExecutable(candidate)) return { name, path: candidate };
  }
  return { name, path: null, missing: `${name} is not installed (${install}); the tests that need it are skipped` };
}

/**
 * For `describe.skipIf(!binary.path)`: reports once, on stderr, why the tests
 * are skipped, and returns whether they can run.
 */
export function requireSystemBinary(binary: SystemBinary, what: string): binary is { name: string; path: string } {
  if (binary.path !== null) return true;
  process.stderr.write(`[skip] ${what}: ${binary.missing}\n`);
  return false;
}

/** `chromium` → `CHROMIUM_PATH`, `pg_dump` → `PG_DUMP_PATH`. */
function envName(name: string): string {
  return `${name.toUpperCase().replace(/[^A-Z0-9]/g, "_")}_PATH`;
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The Chromium the browser tests drive: the system's (Debian's `chromium`)
 * when installed, otherwise the one that ships inside the `@sparticuz/chromium`
 * package (a dev dependency), unpacked to the temp directory on first use. So
 * `npm ci && npm test` needs no system install. `CHROMIUM_PATH=` (empty) skips
 * the system one; `CHROMIUM_PATH=/path/to/chrome` picks another.
 */
export async function chromiumExecutable(): Promise<{ path: string; source: "system" | "bundled" }> {
  const system = findSystemBinary("chromium");
  if (system.path) return { path: system.path, source: "system" };
  const { default: bundled } = await import("@sparticuz/chromium");
  // Only the binary: its recommended flags (single process, web security off) would change what the tests check.
  return { path: await bundled.executablePath(), source: "bundled" };
}
