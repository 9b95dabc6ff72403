// npm run dev: the whole local stack in one command. Starts the embedded
// database (unless DATABASE_URL names another), migrates it,
// runs the identity service in this process, provisions a partner key, the
// demo account and the agent's key on first run, then runs `next dev`.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { PortInUseError, startIdentityServer, type IdentityServer } from "@/identity/server";
import { IdentityStore } from "@/identity/store";
import { AUTH_BASE_PATH, HEALTH_PATH, NOTES_PATH } from "@/lib/http/paths";
import { migrateDatabaseTarget } from "@/lib/db/migrate";
import { describeFailure } from "@/lib/db/describe-failure";
import { openDatabase, type OpenDatabase } from "./lib/database";
import { formatBanner } from "./lib/dev-banner";
import { DevConfigError, readDevConfig, type DevConfig } from "./lib/dev-env";
import { DEMO_EMAIL, DEMO_PASSWORD, ensureAgentKey, ensureNotesAccount, ensurePartnerKey, recordDevAdmin } from "./lib/dev-provision";
import { exited, hasExited, isPortFree, prefixLines, stopChild, stripControlSequences, waitForListening } from "./lib/processes";

const root = process.cwd();
/** `next dev` compiles on demand, but the server itself is up within seconds; a cold machine gets a minute. */
const APP_START_TIMEOUT_MS = 60_000;

/** How long the warm-up gives each route to compile and answer. */
const WARM_UP_TIMEOUT_MS = 120_000;

/** A failure reported as one line, without a stack. */
class StartupError extends Error {}

const say = (message: string) => process.stdout.write(`[dev] ${message}\n`);

async function main(stop: StopRequest): Promise<number> {
  const config = readDevConfig();
  if (config.inheritedIdentityUrl) say(`Ignoring IDENTITY_API_URL=${config.inheritedIdentityUrl}: npm run dev runs its own identity service`);
  await assertAppPortFree(config.appPort);
  if (stop.requested()) return 0;
  const identity = await startIdentity(config);
  let adminRecorded = false;
  let database: OpenDatabase | undefined;
  try {
    // A stop asked for during a step ends the start-up after it: what was started so far is stopped below.
    if (stop.requested()) return 0;
    database = await startDatabase(config);
    if (stop.requested()) return 0;
    await migrate(database, config);
    if (stop.requested()) return 0;
    const { partnerKey, agentEmail, agentHasAccount } = await provision(config, database);
    if (stop.requested()) return 0;
    // Lets `npm run users` add accounts through the app while it holds the embedded database.
    const adminSecret = randomBytes(32).toString("base64url");
    const app = startApp(config, database, identity, partnerKey, adminSecret);
    const run = superviseApp(app, database, stop);
    if (await appStarted(app, config.appPort, stop)) {
      await warmUp(app, config.appPort, stop.signal);
      if (stop.requested()) return await run.done;
      await recordDevAdmin(config.stackFile, {
        url: `http://127.0.0.1:${config.appPort}`,
        secret: adminSecret,
        pid: process.pid,
        databaseUrl: database.url,
      });
      adminRecorded = true;
      process.stdout.write(
        formatBanner({
          appUrl: `http://localhost:${config.appPort}`,
          identityUrl: identity.url,
          agentEmail,
          agentHasAccount,
          agentConfigDir: config.agentConfigDir,
          customAgentConfigDir: config.customAgentConfigDir,
          inheritedIdentityUrl: config.inheritedIdentityUrl,
        }),
      );
    }
    return await run.done;
  } finally {
    if (adminRecorded) await recordDevAdmin(config.stackFile, undefined).catch(() => undefined);
    await identity.close();
    // After the app: it is never left without its database while it runs.
    await database?.stop();
  }
}

/**
 * What `next dev` compiles before the banner, after the health check
 * (the database's first use), side by side: the notes routes the banner's
 * commands and an open note call, the pages a person opens first and the
 * sign-in route (signed out, each page compiles before its redirect to sign-in),
 * and Next's own error page (a path it cannot decode answers 400 with it; a
 * browser that leaves mid-request gets it too, which compiled it after the banner).
 */
const WARM_UP_ROUTES = [
  NOTES_PATH,
  // A note's own route: the open note's page checks it for changes.
  `${NOTES_PATH}/00000000-0000-4000-8000-000000000000`,
  "/",
  "/sign-in",
  `${AUTH_BASE_PATH}/ok`,
  "/notes",
  "/notes/00000000-0000-4000-8000-000000000000",
  "/notes/%E0%A4%A",
];

/**
 * `next dev` compiles a route on its first request (seconds here, a minute on
 * a cold machine): the routes the banner's commands call and the pages a
 * person opens first are compiled before the banner, so the first command or
 * page answers at once and the log after the banner is one line per request. A route that fails to warm up is said, and
 * compiles on its first request instead.
 */
async function warmUp(app: ChildProcess, port: number, stopped: AbortSignal): Promise<void> {
  say("Compiling the pages and API routes met first…");
  // The health check alone first: it opens the database's first connection, within its own 2 s bound.
  await warmUpRoute(app, port, HEALTH_PATH, stopped);
  // Then the rest at once: Turbopack compiles them side by side, and shares what they have in common.
  await Promise.all(WARM_UP_ROUTES.map((route) => warmUpRoute(app, port, route, stopped)));
}

async function warmUpRoute(app: ChildProcess, port: number, route: string, stopped: AbortSignal): Promise<void> {
  if (stopped.aborted) return;
  // Next logs a request after answering it: the banner waits for that line too, so it cannot land after the banner.
  const logged = appLogs(app, new RegExp(`\\bGET ${route} \\d{3} in `), WARM_UP_LOG_TIMEOUT_MS);
  try {
    // A page's redirect (to sign in) is its answer: the page compiled to give it.
    const response = await fetch(`http://127.0.0.1:${port}${route}`, { redirect: "manual", signal: AbortSignal.any([stopped, AbortSignal.timeout(WARM_UP_TIMEOUT_MS)]) });
    await response.arrayBuffer();
    await logged.seen;
  } catch (error) {
    // Stopping: nothing is left to compile for.
    if (stopped.aborted) return;
    say(`Could not compile ${route} ahead (${(error as Error).message}); its first request will.`);
  } finally {
    logged.stop();
  }
}

/** How long the banner waits for Next's line about a warm-up request, once answered. */
const WARM_UP_LOG_TIMEOUT_MS = 10_000;

/** Resolves when the app prints a line matching `pattern` (or after `timeoutMs`: the line is a nicety, not a condition to start). */
function appLogs(app: ChildProcess, pattern: RegExp, timeoutMs: number): { seen: Promise<void>; stop: () => void } {
  let stop = () => {};
  const seen = new Promise<void>((resolve) => {
    let pending = "";
    // A listener beside prefixLines' own: reading the same chunks changes nothing in how the app's output flows.
    const onData = (chunk: Buffer) => {
      const lines = (pending + chunk.toString("utf8")).split("\n");
      pending = lines.pop() ?? "";
      if (lines.some((line) => pattern.test(stripControlSequences(line)))) done();
    };
    const timer = setTimeout(() => done(), timeoutMs);
    function done() {
      clearTimeout(timer);
      app.stdout!.off("data", onData);
      resolve();
    }
    app.stdout!.on("data", onData);
    stop = done;
  });
  return { seen, stop };
}

async function assertAppPortFree(port: number): Promise<void> {
  if (await isPortFree(port)) return;
  throw new StartupError(`Port ${port} for the notes app is already in use (another npm run dev or npm start?). Stop it, or set PORT to another port.`);
}

async function startDatabase(config: DevConfig): Promise<OpenDatabase> {
  try {
    const database = await openDatabase(config.databaseUrl, config.database, say);
    if (config.database.kind === "embedded") say(`Embedded PostgreSQL on ${new URL(database.url).host} (data in ${relative(config.database.dir)})`);
    return database;
  } catch (error) {
    throw new StartupError(`Could not start the database: ${describeFailure(error, config.databaseUrl)}`);
  }
}

async function migrate(database: OpenDatabase, config: DevConfig): Promise<void> {
  try {
    const { applied } = await migrateDatabaseTarget(database.target);
    for (const name of applied) say(`Applied migration ${name}`);
  } catch (error) {
    throw new StartupError(`Could not migrate the database: ${describeFailure(error, database.url || config.databaseUrl)}`);
  }
}

async function startIdentity(config: DevConfig): Promise<IdentityServer> {
  try {
    const server = await startIdentityServer({
      port: config.identityPort,
      dataDir: config.identityDataDir,
      // The app's own token checks (one per API request) are its business: only their failures are shown.
      log: (line) => {
        if (!/^POST \/api\/verify 2\d\d /.test(line)) process.stdout.write(`[identity] ${line}\n`);
      },
    });
    say(`Identity service on ${server.url} (data in ${relative(config.identityDataDir)})`);
    return server;
  } catch (error) {
    if (!(error instanceof PortInUseError)) throw error;
    throw new StartupError(
      `Port ${error.port} for the identity service is already in use (another npm run dev or npm run identity -- serve?). ` +
        "Stop it, or set IDENTITY_PORT to another port.",
    );
  }
}

async function provision(config: DevConfig, database: OpenDatabase) {
  const store = await IdentityStore.open(config.identityDataDir);
  const partner = await ensurePartnerKey(store, config.stackFile);
  say(`Partner key for the app: ${partner.created ? "created" : "reused"} (kept in ${relative(config.stackFile)})`);

  const agent = await ensureAgentKey(store, config.agentConfigDir);
  say(
    agent.action === "kept"
      ? `Agent key: kept the saved key of ${agent.email} in ${config.agentConfigDir}`
      : `Agent key: saved a new key for ${agent.email} in ${agent.file} (${agent.reason})`,
  );

  const account = await ensureNotesAccount(database.target, agent.email).catch((error: unknown) => {
    throw new StartupError(`Could not create the demo account: ${describeFailure(error, database.url)}`);
  });
  say(
    account.demo === "created"
      ? `Demo account ${DEMO_EMAIL} created (password ${DEMO_PASSWORD})`
      : `Demo account ${DEMO_EMAIL} reused`,
  );
  return { partnerKey: partner.partnerKey, agentEmail: agent.email, agentHasAccount: account.agentHasAccount };
}

function startApp(config: DevConfig, database: OpenDatabase, identity: IdentityServer, partnerKey: string, adminSecret: string): ChildProcess {
  const next = path.join(root, "node_modules/next/dist/bin/next");
  const child = spawn(process.execPath, [next, "dev", "-p", String(config.appPort)], {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      NODE_ENV: "development",
      DATABASE_URL: database.url,
      IDENTITY_API_URL: identity.url,
      IDENTITY_PARTNER_KEY: partnerKey,
      DEV_ADMIN_SECRET: adminSecret,
      // A first run should not open with a notice about usage data; NEXT_TELEMETRY_DISABLED=0 keeps it on.
      NEXT_TELEMETRY_DISABLED: process.env.NEXT_TELEMETRY_DISABLED ?? "1",
      // Output goes through a pipe; keep Next's colours when a person is watching.
      ...(process.stdout.isTTY && !process.env.NO_COLOR ? { FORCE_COLOR: "1" } : {}),
    },
  });
  prefixLines(child.stdout!, "[app]", process.stdout, withoutNoise());
  prefixLines(child.stderr!, "[app]", process.stderr, withoutNoise());
  return child;
}

/**
 * A filter for what `next dev` prints that says nothing to a person: its
 * report of a browser that went away while sending a request (a tab closed or
 * a page left during a save: four lines, "Error: aborted" (after "⨯ " or
 * "⨯ uncaughtException: ", or alone) to "}", code
 * ECONNRESET; the request was the browser's to abandon), and its notice that
 * it saved its compile cache to disk.
 */
function withoutNoise(): (line: string) => boolean {
  let dropping = 0;
  return (printed) => {
    const line = stripControlSequences(printed);
    if (/^\s*✓ Finished writing to filesystem cache in /.test(line)) return false;
    if (/^\s*(⨯ )?(uncaughtException: +)?Error: aborted$/.test(line)) dropping = 4;
    if (dropping === 0) return true;
    dropping -= 1;
    if (line.trim() === "}") dropping = 0;
    return false;
  };
}

type StopRequest = {
  requested(): boolean;
  /** Aborted once a stop is asked for. */
  signal: AbortSignal;
  /** Calls `then` with the signal at the stop (at once when it was asked for already). */
  onStop(then: (signal: NodeJS.Signals) => void): void;
};

/**
 * Ctrl-C (SIGINT) and SIGTERM, listened for from the script's first step: a
 * stop asked for during the start-up ends it after the step under way, and
 * what was started is stopped (the finally of main), never left running.
 */
function listenForStop(): StopRequest {
  const controller = new AbortController();
  let received: NodeJS.Signals | undefined;
  const handlers: ((signal: NodeJS.Signals) => void)[] = [];
  const stop = (signal: NodeJS.Signals) => {
    if (received) return;
    received = signal;
    say("Stopping…");
    controller.abort();
    for (const handler of handlers) handler(signal);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  return {
    requested: () => received !== undefined,
    signal: controller.signal,
    onStop(then) {
      if (received) then(received);
      else handlers.push(then);
    },
  };
}

type AppRun = {
  /** The exit code for this script once the app is gone. */
  done: Promise<number>;
};

/** False when a stop was asked for before the app came up; throws when the app failed to start by itself. */
async function appStarted(app: ChildProcess, port: number, stop: StopRequest): Promise<boolean> {
  try {
    await waitForListening(app, port, APP_START_TIMEOUT_MS);
    return !stop.requested();
  } catch (error) {
    if (stop.requested()) return false;
    await stopChild(app, "SIGTERM");
    throw new StartupError(`The notes app (next dev) ${(error as Error).message}; see the [app] lines above.`);
  }
}

/**
 * Ctrl-C (SIGINT) and SIGTERM stop the app, and then this script with code 0;
 * an app that ends by itself takes the script down with its own code, and so
 * does the embedded database if it stops under the app.
 */
function superviseApp(app: ChildProcess, database: OpenDatabase, stop: StopRequest): AppRun {
  let databaseFailed = false;
  // In a terminal the app got Ctrl-C too; forwarding covers a kill from elsewhere.
  stop.onStop((signal) => void stopChild(app, signal));
  void database.exited.then((code) => {
    if (stop.requested() || hasExited(app)) return;
    say(`The embedded database exited on its own (code ${code ?? "none"}); stopping.`);
    databaseFailed = true;
    void stopChild(app, "SIGTERM");
  });
  const done = exited(app).then((code) => {
    if (databaseFailed) return 1;
    if (stop.requested()) return 0;
    say(`The notes app exited on its own (code ${code ?? "none"}); stopping.`);
    return code || 1;
  });
  return { done };
}

/** Expected failures in one line; anything else with its stack, since it is a bug. */
function describeError(error: unknown): string {
  if (error instanceof StartupError || error instanceof DevConfigError) return error.message;
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

function relative(file: string): string {
  const rel = path.relative(root, file);
  return rel.startsWith("..") || path.isAbsolute(rel) ? file : rel;
}

const stop = listenForStop();
main(stop).then(
  (code) => {
    // Only a requested stop ends with 0, after the app has exited and the identity service has closed.
    if (code === 0) say("Stopped.");
    process.exit(code);
  },
  (error: unknown) => {
    // Ctrl-C in a terminal reaches every process of the group: a step that failed under it (the database's
    // first initdb, say) was stopped as asked, and what had started is stopped (main's finally).
    if (stop.requested()) {
      say("Stopped.");
      process.exit(0);
    }
    process.stderr.write(`[dev] ${describeError(error)}\n`);
    process.exit(1);
  },
);
