import os from "node:os";
import path from "node:path";
import { z } from "zod";

/**
 * Environment of the identity service and the agent tool: the one place in
 * `identity/` that reads `process.env`. Invalid values fail fast with a
 * message naming the variable.
 */
const emptyAsUndefined = (value: unknown) => (value === "" ? undefined : value);

const ZIdentityEnvSchema = z.object({
  IDENTITY_DATA_DIR: z.preprocess(emptyAsUndefined, z.string().optional()),
  /** The app's data folder: the identity service's state is in its `identity` folder unless IDENTITY_DATA_DIR says otherwise, as `npm run dev` keeps it. */
  NOTES_DATA_DIR: z.preprocess(emptyAsUndefined, z.string().optional()),
  IDENTITY_TOKEN_TTL_SECONDS: z.preprocess(emptyAsUndefined, z.coerce.number().positive().optional()),
  IDENTITY_API_URL: z.preprocess(emptyAsUndefined, z.url().optional()),
  AGENT_CONFIG_DIR: z.preprocess(emptyAsUndefined, z.string().optional()),
  PORT: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(65535).optional()),
});

export type TIdentityEnv = {
  dataDir: string;
  tokenTtlSeconds: number | undefined;
  apiUrl: string;
  agentConfigDir: string;
  port: number | undefined;
};

/** The local identity service, as served by `npm run identity -- serve`. */
export const DEFAULT_IDENTITY_API_URL = "http://127.0.0.1:4000";
export const DEFAULT_PORT = 4000;

class EnvError extends Error {}

export function readIdentityEnv(env: Record<string, string | undefined> = process.env): TIdentityEnv {
  const parsed = ZIdentityEnvSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new EnvError(`Invalid environment variable ${String(issue?.path[0])}: ${issue?.message}`);
  }
  const values = parsed.data;
  return {
    dataDir: path.resolve(values.IDENTITY_DATA_DIR ?? path.join(values.NOTES_DATA_DIR ?? ".data", "identity")),
    tokenTtlSeconds: values.IDENTITY_TOKEN_TTL_SECONDS,
    apiUrl: values.IDENTITY_API_URL ?? DEFAULT_IDENTITY_API_URL,
    agentConfigDir: path.resolve(values.AGENT_CONFIG_DIR ?? path.join(os.homedir(), ".config", "notes-agent")),
    port: values.PORT,
  };
}
