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
  /** Unset: embedded PGlite in ./.data/pglite. Also `pglite:<dir>`, `pglite:memory`, `postgres://…`. */
  DATABASE_URL: optionalString,
  /** Connections per server instance; keep small on serverless hosts. */
  DATABASE_POOL_MAX: intWithDefault(5, 1, 100),
  /** Base URL of the identity service's verify API. */
  IDENTITY_API_URL: z.preprocess(emptyAsUndefined, z.url().default("http://127.0.0.1:4000")),
  /** Secret partner key for verify calls. Unset: every request fails with SERVER_CONFIG_ERROR. */
  IDENTITY_PARTNER_KEY: optionalString,
  IDENTITY_TIMEOUT_MS: intWithDefault(5000, 100, 60_000),
  /** Public URL of this app, used in messages; defaults to the request's origin. */
  APP_URL: z.preprocess(emptyAsUndefined, z.url().optional()),
  LOG_LEVEL: z.enum(["info", "silent"]).default("info"),
  PORT: intWithDefault(3000, 1, 65_535),

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
});

export type Env = z.infer<typeof ZEnvSchema>;

let cached: Env | undefined;

export function getEnv(): Env {
  if (cached) return cached;
  const parsed = ZEnvSchema.safeParse(process.env);
  if (!parsed.success) {
    // Name the variables, never their values: some are secrets.
    const names = parsed.error.issues.map((issue) => issue.path.join(".")).join(", ");
    throw new Error(`Invalid environment configuration: ${names}`);
  }
  cached = parsed.data;
  return cached;
}
