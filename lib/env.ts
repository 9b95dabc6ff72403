// Fails the build if a client component imports this module: the names of the
// server's settings (and the schema that reads them) never reach a browser.
import "#server-only";
import { z } from "zod";

/**
 * The server's configuration, parsed once. The only reader of `process.env` in
 * the app. Parsed lazily (on first use, not at import) so `next build` needs no
 * runtime settings.
 */
const emptyAsUndefined = (value: unknown) => (value === "" ? undefined : value);
const optionalString = z.preprocess(emptyAsUndefined, z.string().optional());
const intWithDefault = (fallback: number, min: number, max: number) =>
  z.preprocess(emptyAsUndefined, z.coerce.number().int().min(min).max(max).default(fallback));

const ZEnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  /** `postgres://…`; unset: the embedded PostgreSQL server that npm run dev and npm start start (`.data/postgres`). Also `pglite:<dir>`, `pglite:memory`. */
  DATABASE_URL: optionalString,
  /** Holds the embedded database (`<dir>/postgres`) when DATABASE_URL is unset. */
  NOTES_DATA_DIR: z.preprocess(emptyAsUndefined, z.string().default(".data")),
  /** With a pooled DATABASE_URL (`?pgbouncer=true`): a direct connection to the same database, for migrations. */
  DIRECT_DATABASE_URL: optionalString,
  /** Connections per server instance; keep small on serverless hosts. */
  DATABASE_POOL_MAX: intWithDefault(5, 1, 100),
  // Time bounds of the database, in milliseconds (see lib/db/limits.ts).
  /** Longest a single SQL statement may run. */
  DATABASE_STATEMENT_TIMEOUT_MS: intWithDefault(5000, 100, 600_000),
  /** Longest a statement waits for a row or table lock. */
  DATABASE_LOCK_TIMEOUT_MS: intWithDefault(2000, 50, 600_000),
  /** A session idle inside an open transaction this long is ended by the server, releasing its locks. */
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: intWithDefault(10_000, 100, 600_000),
  /** Longest a request waits for a free pooled connection. */
  DATABASE_POOL_TIMEOUT_MS: intWithDefault(5000, 100, 600_000),
  /** Longest a write transaction may stay open, all statements included. */
  DATABASE_TRANSACTION_TIMEOUT_MS: intWithDefault(10_000, 100, 600_000),
  /** Extra attempts of a write transaction that lost a deadlock or serialization race. */
  DATABASE_WRITE_RETRIES: intWithDefault(4, 0, 20),
  /** Base URL of the identity service's verify API. */
  IDENTITY_API_URL: z.preprocess(emptyAsUndefined, z.url().default("http://127.0.0.1:4000")),
  /** Secret partner key for verify calls. Unset: every request fails with SERVER_CONFIG_ERROR. */
  IDENTITY_PARTNER_KEY: optionalString,
  IDENTITY_TIMEOUT_MS: intWithDefault(5000, 100, 60_000),
  /**
   * The app's public origin (`https://notes.example.com`): the one trusted origin. Every link
   * and absolute URL the app builds starts with it, never with a request's Host header.
   * Required in production; development uses http://localhost:<PORT>.
   */
  APP_URL: z.preprocess(
    emptyAsUndefined,
    z
      .url({ protocol: /^https?$/, hostname: z.regexes.hostname })
      .refine((value) => !URL.canParse(value) || ["", "/"].includes(new URL(value).pathname + new URL(value).search + new URL(value).hash), "APP_URL must be an origin, without a path")
      .optional(),
  ),
  /**
   * Origins besides the app's own whose pages may call /api/mcp from a browser
   * (comma-separated, `https://chat.example.com,https://tools.example.org`).
   * A request with another Origin is refused before anything else: a web page
   * cannot reach a local server through a rebound DNS name.
   */
  MCP_ALLOWED_ORIGINS: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .transform((value) => value.split(",").map((origin) => origin.trim()).filter(Boolean))
      .pipe(z.array(z.url({ protocol: /^https?$/ }).refine((origin) => new URL(origin).origin === origin, "each origin is a scheme, host and port, without a path")))
      .optional(),
  ),
  /** Seconds an OAuth access token for /api/mcp lasts; the client refreshes it with its refresh token. */
  MCP_ACCESS_TOKEN_TTL_SECONDS: intWithDefault(3600, 5, 86_400),
  LOG_LEVEL: z.enum(["info", "silent"]).default("info"),
  PORT: intWithDefault(3000, 1, 65_535),
  /** On SIGTERM/SIGINT, how long in-flight requests get to finish before their connections are closed. */
  SHUTDOWN_TIMEOUT_MS: intWithDefault(10_000, 0, 600_000),

  /** Days a deleted note stays in the trash, restorable, before it is purged for good. */
  TRASH_RETENTION_DAYS: intWithDefault(30, 1, 3650),
  /** Days the change feed (GET /api/changes) keeps a change; a cursor older than that is answered 410. */
  CHANGES_RETENTION_DAYS: intWithDefault(30, 1, 3650),
  /** The largest image or file one upload may store (bytes; default 10 MiB). */
  ATTACHMENT_MAX_BYTES: intWithDefault(10 * 1024 * 1024, 1024, 100 * 1024 * 1024),

  // Client addresses and rate limits.
  /**
   * A header the proxy in front of the app sets to the client's address (`X-Forwarded-For`,
   * `X-Real-IP`, …). Unset (and TRUSTED_PROXY_HOPS unset): the address of the connection,
   * and any forwarding header a client sends is ignored.
   */
  TRUSTED_PROXY_HEADER: z.preprocess(emptyAsUndefined, z.string().regex(/^[A-Za-z0-9-]+$/).toLowerCase().optional()),
  /** How many trusted proxies append to that header (default 1): the client is that many entries from its right end. */
  TRUSTED_PROXY_HOPS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(10).optional()),
  /** REST API and MCP requests per user and window; 0 turns the limit off. */
  API_RATE_LIMIT: intWithDefault(600, 0, 1_000_000_000),
  /** Length of the API rate-limit window, in seconds. */
  API_RATE_LIMIT_WINDOW: intWithDefault(60, 1, 86_400),

  // Content conversions (Markdown ↔ blocks ↔ text) run in a pool of worker threads.
  /** Worker threads; default: one fewer than the machine's CPUs, at least one. */
  CONVERSION_THREADS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(64).optional()),
  /** Time budget of one conversion once a worker runs it; over it the worker is killed and the request answers 422. */
  CONVERSION_TIMEOUT_MS: intWithDefault(5000, 100, 120_000),
  /** Heap limit of each worker (old generation, MB); over it the worker dies and the request answers 422. */
  CONVERSION_HEAP_MB: intWithDefault(256, 32, 8192),
  /** Conversions waiting for a worker; beyond it, and after waiting CONVERSION_QUEUE_TIMEOUT_MS, a request answers 503. */
  CONVERSION_QUEUE_MAX: intWithDefault(64, 0, 10_000),
  CONVERSION_QUEUE_TIMEOUT_MS: intWithDefault(15_000, 100, 300_000),

  // Browser accounts and mail.
  /** Signs and encrypts browser sessions and email links. Required in production; development and tests use a fixed dev-only value. */
  BETTER_AUTH_SECRET: optionalString,
  /** `smtp://user:pass@host:587` or `smtps://…`. Unset: mail goes to the local outbox (development and tests only). */
  SMTP_URL: optionalString,
  /** Sender of account emails. */
  MAIL_FROM: z.preprocess(emptyAsUndefined, z.string().default("Notes <no-reply@notes.localhost>")),
  /** Directory of the local outbox (default `.data/outbox`). */
  OUTBOX_DIR: optionalString,
  /** "1" serves the local outbox and /dev/outbox in a production build (for tests); never set it on a real deployment. */
  OUTBOX_ENABLED: z.preprocess((value) => value === "1" || value === "true", z.boolean()),
  /** Set by `npm run dev` only: lets `npm run users` add accounts through the running app (development builds only). */
  DEV_ADMIN_SECRET: optionalString,
});

export type Env = z.infer<typeof ZEnvSchema>;

/** A production setting is missing or unusable: the server must not serve. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

let cached: Env | undefined;

export function getEnv(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

/** Settings from an environment; throws ConfigError naming the invalid variables, never their values (some are secrets). */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const parsed = ZEnvSchema.safeParse(source);
  if (!parsed.success) {
    const names = parsed.error.issues.map((issue) => issue.path.join(".")).join(", ");
    throw new ConfigError(`Invalid environment configuration: ${names}`);
  }
  return parsed.data;
}
