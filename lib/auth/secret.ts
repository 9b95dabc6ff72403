import { ConfigError, type Env } from "@/lib/env";

/** Signs development and test sessions only; a production build refuses to run without its own secret. */
const DEV_ONLY_SECRET = "dev-only-secret:notes-app:never-use-in-production:0000";
const MIN_SECRET_LENGTH = 32;

class AuthConfigError extends ConfigError {
  constructor(message: string) {
    super(message);
    this.name = "AuthConfigError";
  }
}

export function authSecret(env: Env): string {
  const secret = env.BETTER_AUTH_SECRET;
  if (env.NODE_ENV !== "production") return secret ?? DEV_ONLY_SECRET;
  if (!secret) {
    throw new AuthConfigError(
      "BETTER_AUTH_SECRET is not set: browser sign-in needs a random secret of at least 32 characters (for example `openssl rand -base64 32`)",
    );
  }
  if (secret.length < MIN_SECRET_LENGTH) throw new AuthConfigError(`BETTER_AUTH_SECRET must be at least ${MIN_SECRET_LENGTH} characters long`);
  return secret;
}
