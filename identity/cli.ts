import { parseArgs } from "node:util";
import { runCli, UsageError } from "./cli-runner";
import { DEFAULT_PORT, readIdentityEnv } from "./env";
import { addPartnerKey, listPartnerKeys, revokePartnerKey } from "./partners";
import { PortInUseError, startIdentityServer } from "./server";
import { IdentityStore } from "./store";
import { addUserKey, listUsers, removeUser, revokeUserKey } from "./users";

const USAGE = `Usage: npm run identity -- <command>

Self-hosted identity service for agents: serves POST /api/verify for
partners and POST /api/tokens for the agent tool, and manages users and keys.

Commands:
  serve [--port <n>] [--host <addr>] [--quiet]
                              Run the service (default 127.0.0.1:4000, or $PORT)
  user add <email>            Create the user if new and print a new personal API key
  user list [--json]          List users and their key ids (no secrets)
  user revoke-key <key|id>    Revoke a personal API key; its tokens stop verifying
  user remove <email>         Delete a user and all their keys
  partner add <email>         Print a new partner key for the partner with that email
  partner list [--json]       List partner keys (ids and state, no secrets)
  partner revoke <key|id>     Revoke a partner key; verify then answers 403

Secrets are printed alone on stdout, so key=$(npm run -s identity -- user add a@b.c) works.
Messages go to stderr. Exit codes: 0 ok, 1 failure, 2 usage error.

Environment:
  IDENTITY_DATA_DIR           State and server secret (default <NOTES_DATA_DIR>/identity,
                              with NOTES_DATA_DIR default ./.data)
  IDENTITY_TOKEN_TTL_SECONDS  Session token lifetime (default 300)
  PORT                        Port for serve when --port is not given
`;

function requireArg(value: string | undefined, what: string): string {
  if (!value) throw new UsageError(`Missing ${what}`);
  return value;
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`Invalid port: ${value}`);
  return port;
}

function printTable(rows: string[][]): void {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  for (const row of rows) console.log(row.map((cell, column) => cell.padEnd(widths[column]!)).join("  ").trimEnd());
}

const stateOf = (revokedAt: string | null) => (revokedAt ? `revoked ${revokedAt}` : "active");

async function serve(values: { port?: string; host?: string; quiet?: boolean }): Promise<number> {
  const env = readIdentityEnv();
  const port = values.port !== undefined ? parsePort(values.port) : (env.port ?? DEFAULT_PORT);
  const host = values.host ?? "127.0.0.1";
  let server;
  try {
    server = await startIdentityServer({
      port,
      host,
      dataDir: env.dataDir,
      tokenTtlSeconds: env.tokenTtlSeconds,
      log: values.quiet ? undefined : (line) => console.log(line),
    });
  } catch (err) {
    if (err instanceof PortInUseError) {
      console.error(`identity: port ${err.port} on ${err.host} is already in use; stop the process using it or pick another with --port`);
      return 1;
    }
    throw err;
  }
  console.log(`Identity service listening on ${server.url} (data dir ${env.dataDir})`);
  await new Promise<void>((resolve) => {
    const stop = () => void server.close().then(resolve, resolve);
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
  return 0;
}

async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      port: { type: "string", short: "p" },
      host: { type: "string" },
      quiet: { type: "boolean", short: "q" },
      json: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
  const [group, action, arg] = positionals;
  if (values.help || group === "help" || group === undefined) {
    (group === undefined && !values.help ? console.error : console.log)(USAGE.trimEnd());
    return group === undefined && !values.help ? 2 : 0;
  }
  if (group === "serve") return serve(values);

  const store = await IdentityStore.open(readIdentityEnv().dataDir);
  const command = `${group} ${action ?? ""}`.trim();
  switch (command) {
    case "user add": {
      const added = await addUserKey(store, { email: requireArg(arg, "<email>") });
      console.error(`${added.createdUser ? "Created user" : "New API key for"} ${added.email} (key id ${added.keyId})`);
      console.log(added.apiKey);
      return 0;
    }
    case "user list": {
      const users = await listUsers(store);
      if (values.json) console.log(JSON.stringify(users, null, 2));
      else if (users.length === 0) console.error("No users");
      else
        printTable([
          ["EMAIL", "USER ID", "KEY ID", "KEY STATE"],
          ...users.flatMap((user) =>
            user.keys.length === 0
              ? [[user.email, user.id, "-", "-"]]
              : user.keys.map((key) => [user.email, user.id, key.id, stateOf(key.revokedAt)]),
          ),
        ]);
      return 0;
    }
    case "user revoke-key": {
      const revoked = await revokeUserKey(store, { key: requireArg(arg, "<key>") });
      console.error(`${revoked.alreadyRevoked ? "Already revoked" : "Revoked"}: API key ${revoked.keyId} of ${revoked.email}`);
      return 0;
    }
    case "user remove": {
      const removed = await removeUser(store, { email: requireArg(arg, "<email>") });
      console.error(`Removed user ${removed.email} and all their keys`);
      return 0;
    }
    case "partner add": {
      const added = await addPartnerKey(store, { email: requireArg(arg, "<email>") });
      console.error(`New partner key for ${added.email} (key id ${added.keyId})`);
      console.log(added.partnerKey);
      return 0;
    }
    case "partner list": {
      const keys = await listPartnerKeys(store);
      if (values.json) console.log(JSON.stringify(keys, null, 2));
      else if (keys.length === 0) console.error("No partner keys");
      else
        printTable([
          ["EMAIL", "KEY ID", "CREATED", "STATE"],
          ...keys.map((key) => [key.email, key.id, key.createdAt, stateOf(key.revokedAt)]),
        ]);
      return 0;
    }
    case "partner revoke": {
      const revoked = await revokePartnerKey(store, { key: requireArg(arg, "<key>") });
      console.error(`${revoked.alreadyRevoked ? "Already revoked" : "Revoked"}: partner key ${revoked.keyId} of ${revoked.email}`);
      return 0;
    }
    default:
      throw new UsageError(`Unknown command: ${positionals.join(" ")}`);
  }
}

await runCli("identity", run);
