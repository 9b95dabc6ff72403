import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { EMBEDDED_DIR_NAME, parseDatabaseUrl, type DatabaseTarget } from "@/lib/db/config";

/**
 * Settings of `npm run dev`, parsed once: the one place in the dev script that
 * reads `process.env`. Every value has a default, so a fresh clone needs no
 * `.env`; the overrides let several stacks run side by side (tests do).
 */
const emptyAsUndefined = (value: unknown) => (value === "" ? undefined : value);
const optionalString = z.preprocess(emptyAsUndefined, z.string().optional());
const port = (fallback: number) => z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(65_535).default(fallback));

const ZDevEnvSchema = z.object({
  /** Holds the embedded database, the identity service's state and dev-stack.json. */
  NOTES_DATA_DIR: optionalString,
  /** Unset: the embedded PostgreSQL server in `<NOTES_DATA_DIR>/postgres`, started and stopped with the stack. */
  DATABASE_URL: optionalString,
  IDENTITY_DATA_DIR: optionalString,
  IDENTITY_PORT: port(4000),
  AGENT_CONFIG_DIR: optionalString,
  /** Port of the notes app. */
  PORT: port(3000),
  /** Not used by the stack (it runs its own identity service); read to point that out. */
  IDENTITY_API_URL: optionalString,
});

export type DevConfig = {
  dataDir: string;
  database: DatabaseTarget;
  /** DATABASE_URL as set; undefined for the embedded server, whose URL is known once it runs. */
  databaseUrl: string | undefined;
  identityDataDir: string;
  identityPort: number;
  agentConfigDir: string;
  /** Set when AGENT_CONFIG_DIR was given, so printed commands must name it too. */
  customAgentConfigDir: boolean;
  appPort: number;
  /** Where the app's partner key is kept between runs. */
  stackFile: string;
  /** An IDENTITY_API_URL inherited from the shell, which the printed commands must override. */
  inheritedIdentityUrl: string | undefined;
};

const DEFAULT_DATA_DIR = ".data";
export const STACK_FILE = "dev-stack.json";
/** Where the agent tool keeps its key unless AGENT_CONFIG_DIR says otherwise. */
const DEFAULT_AGENT_CONFIG_DIR = path.join(os.homedir(), ".config", "notes-agent");

export class DevConfigError extends Error {}

export function readDevConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): DevConfig {
  const parsed = ZDevEnvSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new DevConfigError(`Invalid environment variable ${String(issue?.path[0])}: ${issue?.message}`);
  }
  const values = parsed.data;
  const dataDir = path.resolve(cwd, values.NOTES_DATA_DIR ?? DEFAULT_DATA_DIR);
  const databaseUrl = values.DATABASE_URL;
  const database: DatabaseTarget = databaseUrl === undefined ? { kind: "embedded", dir: path.join(dataDir, EMBEDDED_DIR_NAME) } : parseDatabaseUrl(databaseUrl, cwd);
  if (database.kind === "pglite" && database.dataDir === null) {
    // The script and the app are two processes; an in-memory database would be empty for the app.
    throw new DevConfigError("DATABASE_URL=pglite:memory cannot be shared with the app process; use pglite:<dir> or leave it unset");
  }
  return {
    dataDir,
    database,
    databaseUrl,
    identityDataDir: path.resolve(cwd, values.IDENTITY_DATA_DIR ?? path.join(dataDir, "identity")),
    identityPort: values.IDENTITY_PORT,
    agentConfigDir: path.resolve(cwd, values.AGENT_CONFIG_DIR ?? DEFAULT_AGENT_CONFIG_DIR),
    customAgentConfigDir: values.AGENT_CONFIG_DIR !== undefined,
    appPort: values.PORT,
    stackFile: path.join(dataDir, STACK_FILE),
    inheritedIdentityUrl: values.IDENTITY_API_URL,
  };
}
