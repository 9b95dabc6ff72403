import { spawn, type ChildProcess } from "node:child_process";
import { chmod, writeFile } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { collectOutput, freePort, hasExited, makeTempDir, stopChild, waitFor } from "@/scripts/lib/processes";

export const PGBOUNCER_BIN = "/usr/sbin/pgbouncer";

/** A PgBouncer in transaction mode in front of one PostgreSQL server, as serverless hosts run it. */
export type Pgbouncer = {
  port: number;
  /** The same database as `directUrl`, through the pooler, with the app's pooler switch on. */
  appUrl(directUrl: string): string;
  /** The same database through the pooler, as a plain URL (for `pg` clients in tests). */
  pooledUrl(directUrl: string): string;
  /** Runs a command on the admin console (PAUSE, RESUME, SHOW POOLS…). */
  admin(command: string): Promise<unknown[]>;
  output(): string;
  stop(): Promise<void>;
};

/**
 * Starts PgBouncer on a free loopback port with `pool_mode = transaction`,
 * trusting the local user, forwarding every database to the server of
 * `serverUrl`. It refuses to run as root, so it drops to `nobody` then.
 */
export async function startPgbouncer(serverUrl: string, options: { poolSize?: number } = {}): Promise<Pgbouncer> {
  const server = new URL(serverUrl);
  const user = decodeURIComponent(server.username || "postgres");
  const { dir, remove } = await makeTempDir("notes-pgbouncer-");
  await chmod(dir, 0o755);
  const port = await freePort();
  const config = [
    "[databases]",
    `* = host=${server.hostname} port=${server.port || 5432}`,
    "[pgbouncer]",
    "listen_addr = 127.0.0.1",
    `listen_port = ${port}`,
    "unix_socket_dir =",
    "auth_type = trust",
    `auth_file = ${path.join(dir, "users.txt")}`,
    `admin_users = ${user}`,
    "pool_mode = transaction",
    "max_client_conn = 500",
    `default_pool_size = ${options.poolSize ?? 10}`,
    // Fail waiting clients rather than queueing them forever (PAUSE, a dead server).
    "query_wait_timeout = 30",
    "",
  ].join("\n");
  await writeFile(path.join(dir, "pgbouncer.ini"), config, { mode: 0o644 });
  await writeFile(path.join(dir, "users.txt"), `"${user}" ""\n`, { mode: 0o644 });
  const asRoot = process.getuid?.() === 0;
  const child: ChildProcess = spawn(PGBOUNCER_BIN, [...(asRoot ? ["-u", "nobody"] : []), path.join(dir, "pgbouncer.ini")], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output = collectOutput(child);

  const through = (directUrl: string) => {
    const url = new URL(directUrl);
    url.hostname = "127.0.0.1";
    url.port = String(port);
    return url;
  };
  const bouncer: Pgbouncer = {
    port,
    appUrl(directUrl) {
      const url = through(directUrl);
      url.searchParams.set("pgbouncer", "true");
      return url.toString();
    },
    pooledUrl: (directUrl) => through(directUrl).toString(),
    async admin(command) {
      const client = new pg.Client({ host: "127.0.0.1", port, user, database: "pgbouncer" });
      await client.connect();
      try {
        // The admin console speaks only the simple query protocol.
        const result = await client.query({ text: command, queryMode: "simple" } as pg.QueryConfig);
        return result.rows;
      } finally {
        await client.end();
      }
    },
    output,
    async stop() {
      await stopChild(child);
      await remove();
    },
  };

  let lastError: unknown;
  try {
    await waitFor(
      async () => {
        if (hasExited(child)) throw new Error(`pgbouncer exited with ${child.exitCode}:\n${output()}`);
        return bouncer.admin("SHOW VERSION").then(
          () => true,
          (error: unknown) => void (lastError = error),
        );
      },
      { timeoutMs: 10_000, message: () => `pgbouncer's admin console (${String(lastError)}):\n${output()}` },
    );
  } catch (error) {
    await bouncer.stop();
    throw error;
  }
  return bouncer;
}
