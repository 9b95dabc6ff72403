import "server-only";
import { randomUUID } from "node:crypto";
import { betterAuth } from "better-auth";
import { prismaAdapter } from "better-auth/adapters/prisma";
import { AUTH_BASE_PATH } from "@/lib/http/paths";
import { APIError, createAuthMiddleware } from "better-auth/api";
import { nextCookies } from "better-auth/next-js";
import { oauthProvider } from "@better-auth/oauth-provider";
import { getDb, type Db } from "@/lib/db/client";
import { appOrigin, trustedOrigins } from "@/lib/auth/origin";
import { CONSENT_PAGE, endOAuthGrants, hashOAuthToken, MCP_SCOPES, mcpResource } from "@/lib/auth/oauth";
import { authSecret } from "@/lib/auth/secret";
import { getEnv, type Env } from "@/lib/env";
import { log } from "@/lib/log";
import { MAIL_NOT_CONFIGURED, mailTransport } from "@/lib/mail/config";
import { sendMail } from "@/lib/mail/send";
import { existingAccountEmail, resetPasswordEmail, verificationEmail } from "@/lib/mail/templates";
import { deletePendingSignUp } from "@/lib/users/mutations";

/** Browser-auth pages the app links to from emails and redirects. */
export const AUTH_PATHS = {
  signIn: "/sign-in",
  /** Where a verification link lands; the page says the email is verified (or why not). */
  verified: "/sign-in?verified=1",
  resetPassword: "/reset-password",
  /** Where a verification link lands: the person who holds the mailbox sets the password there. */
  verifyEmail: "/verify-email",
} as const;

/**
 * The request header that carries the client's address to the auth library
 * (sessions record it). Set by the /api/auth route from the connection or the
 * trusted proxy's header; whatever a client sends under this name is dropped.
 */
export const CLIENT_ADDRESS_HEADER = "x-notes-client-address";

// Endpoints that set a new password for a signed-in or reset account.
const PASSWORD_ENDPOINTS = new Set(["/reset-password", "/change-password"]);

// Endpoints that exist to send an email: refused up front when nothing can deliver it,
// rather than creating an account whose verification link never arrives.
const MAIL_ENDPOINTS = new Set(["/sign-up/email", "/request-password-reset", "/send-verification-email"]);

/** A client registration that names no application type and redirects only to this machine (http on a loopback host). */
function isLoopbackRegistration(body: unknown): boolean {
  if (!body || typeof body !== "object") return false;
  const { application_type: type, redirect_uris: uris } = body as { application_type?: unknown; redirect_uris?: unknown };
  if (type !== undefined || !Array.isArray(uris) || uris.length === 0) return false;
  return uris.every((uri) => typeof uri === "string" && /^http:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?\//.test(uri));
}

/** The link in a verification email: our page, where the password is set, not the library's endpoint. */
function verificationLink(env: Env, token: string): string {
  return `${appOrigin(env)}${AUTH_PATHS.verifyEmail}?token=${encodeURIComponent(token)}`;
}

/** The auth library over our database: one instance per server process. */
function createAuth(db: Db, env: Env) {
  return betterAuth({
    appName: "Notes",
    // Links in emails start with this, never with a request's Host or X-Forwarded-Host.
    baseURL: appOrigin(env),
    basePath: AUTH_BASE_PATH,
    secret: authSecret(env),
    database: prismaAdapter(db, { provider: "postgresql", transaction: true }),
    trustedOrigins: trustedOrigins(env),
    emailAndPassword: {
      enabled: true,
      // The email joins this account to the identity service: no session before it is proven.
      requireEmailVerification: true,
      minPasswordLength: 8,
      maxPasswordLength: 128,
      revokeSessionsOnPasswordReset: true,
      resetPasswordTokenExpiresIn: 60 * 60,
      sendResetPassword: async ({ user, url }) => sendMail(user.email, resetPasswordEmail({ url })),
      onExistingUserSignUp: async ({ user }) => sendMail(user.email, existingAccountEmail({ signInUrl: `${appOrigin(env)}${AUTH_PATHS.signIn}` })),
    },
    emailVerification: {
      sendOnSignUp: true,
      // Signing in before verifying sends a fresh link (the first may have expired).
      sendOnSignIn: true,
      autoSignInAfterVerification: false,
      expiresIn: 60 * 60,
      // The token is bound to the pending user's id; our page verifies it and sets the password (lib/auth/complete-sign-up.ts).
      sendVerificationEmail: async ({ user, token }) => sendMail(user.email, verificationEmail({ url: verificationLink(env, token) })),
    },
    // Limited per account and per client address in the /api/auth route
    // (lib/auth/limits.ts), in the database; the library's own limiter only knows addresses.
    rateLimit: { enabled: false },
    advanced: {
      // The base URL is APP_URL; forwarded Host and protocol headers mean nothing.
      trustedProxyHeaders: false,
      ipAddress: { ipAddressHeaders: [CLIENT_ADDRESS_HEADER] },
      // Always on: the library would otherwise skip its origin checks whenever a TEST variable is set.
      disableOriginCheck: false,
      disableCSRFCheck: false,
      // Every id column is a uuid.
      database: { generateId: () => randomUUID() },
    },
    databaseHooks: {
      account: {
        update: {
          // A new password signs every device out, and so every connected client.
          after: async (account, ctx) => {
            if (account.providerId === "credential" && ctx && PASSWORD_ENDPOINTS.has(ctx.path)) await endOAuthGrants(db, account.userId);
          },
        },
      },
    },
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        if (MAIL_ENDPOINTS.has(ctx.path) && mailTransport(env).kind === "none") {
          log.error("auth.mail_not_configured", { path: ctx.path, hint: "set SMTP_URL" });
          throw new APIError("SERVICE_UNAVAILABLE", { message: MAIL_NOT_CONFIGURED });
        }
        // Verifying must set the password in the same step (our /verify-email page):
        // the library's endpoint would hand over whatever password the sign-up chose.
        if (ctx.path === "/verify-email") throw new APIError("NOT_FOUND", { message: "Open the link from the email to verify it" });
        // A sign-up nobody verified is not an account: a newer sign-up for the same
        // email replaces it rather than being turned away.
        if (ctx.path === "/sign-up/email" && typeof ctx.body?.email === "string") await deletePendingSignUp(db, ctx.body.email);
        // MCP clients register loopback redirects (a local port) without saying they are native
        // apps, which the provider then judges as web clients and refuses (RFC 8252, section 7.3).
        if (ctx.path === "/oauth2/register" && isLoopbackRegistration(ctx.body)) return { context: { body: { ...ctx.body, application_type: "native" } } };
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
    plugins: [
      // The OAuth 2.1 authorization server of /api/mcp (lib/auth/oauth.ts).
      oauthProvider({
        loginPage: AUTH_PATHS.signIn,
        consentPage: CONSENT_PAGE,
        scopes: [...MCP_SCOPES],
        // Tokens are bound to /api/mcp (RFC 8707), and every client may ask for it. Its
        // scopes are listed: the provider would seed them as null, which a Prisma list cannot hold.
        resources: [{ identifier: mcpResource(appOrigin(env)), name: "Notes MCP server", allowedScopes: [...MCP_SCOPES] }],
        clientRegistrationDefaultResources: [mcpResource(appOrigin(env))],
        // Opaque tokens, looked up on every request, so that a revoked client,
        // a deleted account or a new password ends access at the next one.
        disableJwtPlugin: true,
        storeTokens: { hash: (token) => hashOAuthToken(token) },
        accessTokenExpiresIn: env.MCP_ACCESS_TOKEN_TTL_SECONDS,
        // A client that retries a refresh whose answer it lost gets that answer again for 30 s, not a lockout.
        refreshTokenReuseInterval: 30,
        // MCP clients register themselves (RFC 7591) and are named on the consent page.
        allowDynamicClientRegistration: true,
        allowUnauthenticatedClientRegistration: true,
      }),
      // Lets server actions set session cookies; must stay the last plugin.
      nextCookies(),
    ],
  });
}

export type Auth = ReturnType<typeof createAuth>;

// One instance per process (dev reloads modules), like the database client.
const globalKey = Symbol.for("notes.auth");
type GlobalWithAuth = typeof globalThis & { [globalKey]?: Promise<Auth> };

/** The auth instance; throws ConfigError (logged once per attempt) when production settings are missing. */
export function getAuth(): Promise<Auth> {
  const store = globalThis as GlobalWithAuth;
  if (!store[globalKey]) {
    const pending = (async () => {
      const env = getEnv();
      try {
        authSecret(env);
        appOrigin(env);
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
