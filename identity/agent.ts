import fs from "node:fs/promises";
import path from "node:path";
import { TOKENS_PATH, ZTokenResponseSchema, type TTokenResponse } from "./api";
import { PARTNER_KEY_PREFIX } from "./credentials";
import { ensurePrivateDir, writeFileAtomic } from "./files";

/**
 * The agent side: the personal API key saved on the user's machine and the
 * exchange of that key for a session token.
 */

export const CREDENTIALS_FILE = "credentials.json";

/** Failure the agent tool reports as one line on stderr with exit code 1. */
export class AgentError extends Error {}

export async function saveApiKey(configDir: string, apiKey: string): Promise<string> {
  const key = apiKey.trim();
  if (!key || /\s/.test(key)) throw new AgentError("That does not look like an API key");
  if (key.startsWith(PARTNER_KEY_PREFIX)) throw new AgentError("That is a partner key; save a personal API key instead");
  await ensurePrivateDir(configDir);
  const file = path.join(configDir, CREDENTIALS_FILE);
  await writeFileAtomic(file, `${JSON.stringify({ apiKey: key }, null, 2)}\n`, 0o600);
  return file;
}

export async function readApiKey(configDir: string): Promise<string | undefined> {
  let text: string;
  try {
    text = await fs.readFile(path.join(configDir, CREDENTIALS_FILE), "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
  try {
    const { apiKey } = JSON.parse(text) as { apiKey?: unknown };
    if (typeof apiKey === "string" && apiKey) return apiKey;
  } catch {
    // fall through
  }
  throw new AgentError(`Saved credentials in ${path.join(configDir, CREDENTIALS_FILE)} are unreadable; save the key again`);
}

export async function removeApiKey(configDir: string): Promise<boolean> {
  const file = path.join(configDir, CREDENTIALS_FILE);
  try {
    await fs.unlink(file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw err;
  }
}

export type RequestSessionTokenOptions = {
  apiUrl: string;
  apiKey: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
};

/** POST /api/tokens with the personal API key. */
export async function requestSessionToken(options: RequestSessionTokenOptions): Promise<TTokenResponse> {
  const { apiUrl, apiKey, fetch: fetchImpl = fetch, timeoutMs = 10_000 } = options;
  const url = new URL(TOKENS_PATH, apiUrl.endsWith("/") ? apiUrl : `${apiUrl}/`);
  let response: Response;
  try {
    response = await fetchImpl(url, {
      method: "POST",
      headers: { Authorization: `Bearer ${apiKey}` },
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).name;
    throw new AgentError(`Cannot reach the identity service at ${url.origin} (${cause})`);
  }
  const body: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const reason =
      typeof body === "object" && body !== null && typeof (body as { error?: unknown }).error === "string"
        ? (body as { error: string }).error
        : response.statusText;
    if (response.status === 401) throw new AgentError(`The identity service rejected the saved API key: ${reason}`);
    throw new AgentError(`The identity service answered ${response.status}: ${reason}`);
  }
  const parsed = ZTokenResponseSchema.safeParse(body);
  if (!parsed.success) throw new AgentError(`Unexpected answer from the identity service at ${url.origin}`);
  return parsed.data;
}
