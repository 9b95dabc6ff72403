import "server-only";
import { randomUUID } from "node:crypto";
import { betterAuth } from "better-auth";
import { prismaAdapter } from "better-auth/adapters/prisma";
import { APIError, createAuthMiddleware } from "better-auth/api";
import { nextCookies } from "better-auth/next-js";
import { requestOrigin } from "@/lib/auth/authenticate";
import { getDb, type Db } from "@/lib/db/client";
import { authSecret, AuthConfigError } from "@/lib/auth/secret";
import { getEnv, type Env } from "@/lib/env";
import { log } from "@/lib/log";
import { MAIL_NOT_CONFIGURED, mailTransport } from "@/lib/mail/config";
import { sendMail } from "@/lib/mail/send";
import { existingAccountEmail, resetPasswordEmail, verificationEmail } from "@/lib/mail/templates";


/** Browser-auth pages the app links to from emails and redirects. */
export const AUTH_PATHS = {
  signIn: "/sign-in",
  /** Where a verification link lands; the page says the email is verified (or why not). */
  verified: "/sign-in?verified=1",
  resetPassword: "/reset-password",
} as const;

// Endpoints that exist to send an email: refused up front when nothing can deliver it,
// rather than creating an account whose verification link never arrives.
const MAIL_ENDPOINTS = new Set(["/sign-up/email", "/request-password-reset", "/send-verification-email"]);

function publicOrigin(env: Env, request: Request | undefined): string {
  if (env.APP_URL) return new URL(env.APP_URL).origin;
  return request ? requestOrigin(request) : "";
}

/** The auth library over our database: one instance per server process. */
export function createAuth(db: Db, env: Env) {
  return betterAuth({
    appName: "Notes",
    // Links in emails start with this. Unset: the origin each request was made to
    // (e.g. http://127.0.0.1:<port> in tests), which a production deployment should
    // not rely on: a forged Host header could then steer a reset link elsewhere.
    baseURL: env.APP_URL,
    basePath: "/api/auth",
    secret: authSecret(env),
    database: prismaAdapter(db, { provider: "postgresql", transaction: true }),
    // The library's CSRF/origin check accepts these origins: the public URL, and
    // the origin the request itself was made to (a same-origin form or fetch),
    // worked out as the API does for its messages.
    trustedOrigins: (request) => [env.APP_URL ? new URL(env.APP_URL).origin : undefined, request ? requestOrigin(request) : undefined],
    emailAndPassword: {
      enabled: true,
      // The email joins this account to the identity service: no session before it is proven.
      requireEmailVerification: true,
      minPasswordLength: 8,
      maxPasswordLength: 128,
      revokeSessionsOnPasswordReset: true,
      resetPasswordTokenExpiresIn: 60 * 60,
      sendResetPassword: async ({ user, url }) => sendMail(user.email, resetPasswordEmail({ url })),
      onExistingUserSignUp: async ({ user }, request) =>
        sendMail(user.email, existingAccountEmail({ signInUrl: `${publicOrigin(env, request)}${AUTH_PATHS.signIn}` })),
    },
    emailVerification: {
      sendOnSignUp: true,
      // Signing in before verifying sends a fresh link (the first may have expired).
      sendOnSignIn: true,
      autoSignInAfterVerification: false,
      expiresIn: 60 * 60,
      sendVerificationEmail: async ({ user, url }) => sendMail(user.email, verificationEmail({ url })),
    },
    rateLimit: {
      enabled: env.NODE_ENV === "production",
      // Shared by every server instance (table rate_limits), not per process.
      storage: "database",
      window: 60,
      max: 100,
      customRules: {
        "/sign-in/email": { window: 60, max: 10 },
        "/sign-up/email": { window: 60, max: 5 },
        "/request-password-reset": { window: 60, max: 3 },
        "/send-verification-email": { window: 60, max: 3 },
        "/reset-password": { window: 60, max: 5 },
      },
    },
    advanced: {
      // Without APP_URL the base URL is the request's: Next.js reports it in the
      // forwarded headers (request.url names its internal host, "localhost").
      trustedProxyHeaders: !env.APP_URL,
      // Always on: the library would otherwise skip its origin checks whenever a TEST variable is set.
      disableOriginCheck: false,
      disableCSRFCheck: false,
      // Every id column is a uuid.
      database: { generateId: () => randomUUID() },
    },
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        if (MAIL_ENDPOINTS.has(ctx.path) && mailTransport(env).kind === "none") {
          log.error("auth.mail_not_configured", { path: ctx.path, hint: "set SMTP_URL" });
          throw new APIError("SERVICE_UNAVAILABLE", { message: MAIL_NOT_CONFIGURED });
        }
      }),
    },
    logger: {
      level: "warn",
      log: (level, message, ...args) => {
        const cause = args.find((arg) => arg instanceof Error) as Error | undefined;
        const fields = { message, ...(cause ? { cause: `${cause.name}: ${cause.message}` } : {}) };
        if (level === "error") log.error("auth.library", fields);
        else if (level === "warn") log.warn("auth.library", fields);
      },
    },
    // Lets server actions set session cookies; must stay the last plugin.
    plugins: [nextCookies()],
  });
}

export type Auth = ReturnType<typeof createAuth>;
export type AuthSession = Auth["$Infer"]["Session"];

// One instance per process (dev reloads modules), like the database client.
const globalKey = Symbol.for("notes.auth");
type GlobalWithAuth = typeof globalThis & { [globalKey]?: Promise<Auth> };

/** The auth instance; throws AuthConfigError (logged once per attempt) when production settings are missing. */
export function getAuth(): Promise<Auth> {
  const store = globalThis as GlobalWithAuth;
  if (!store[globalKey]) {
    const pending = (async () => {
      const env = getEnv();
      try {
        authSecret(env);
      } catch (err) {
        log.error("auth.config_error", { cause: err instanceof Error ? err.message : String(err) });
        throw err;
      }
      return createAuth(await getDb(), env);
    })();
    pending.catch(() => {
      if (store[globalKey] === pending) delete store[globalKey];
    });
    store[globalKey] = pending;
  }
  return store[globalKey];
}
