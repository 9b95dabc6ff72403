/**
 * The browser side of sign-up, sign-in, sign-out, verification mail and
 * password reset: JSON POSTs to /api/auth/* on the page's own origin, cookies
 * included. A few lines of our own rather than the auth library's client,
 * whose bundle carries the library's server-side setting names.
 */
import { AUTH_BASE_PATH } from "@/lib/http/paths";

type AuthFailure = { status: number; code?: string; message?: string };
export type AuthResult = { data: Record<string, unknown> | null; error: AuthFailure | null };

async function post(path: string, body: Record<string, unknown> = {}): Promise<AuthResult> {
  let response: Response;
  try {
    response = await fetch(`${AUTH_BASE_PATH}${path}`, {
      method: "POST",
      credentials: "same-origin",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  } catch {
    return { data: null, error: { status: 0, message: "Could not reach the server. Check your connection and try again." } };
  }
  const payload = (await response.json().catch(() => null)) as Record<string, unknown> | null;
  if (!response.ok) {
    const text = (key: string) => (typeof payload?.[key] === "string" ? (payload[key] as string) : undefined);
    return { data: null, error: { status: response.status, code: text("code"), message: text("message") ?? text("error") } };
  }
  // Sign-in with a callbackURL answers where to go next.
  if (payload?.redirect === true && typeof payload.url === "string") window.location.href = payload.url;
  return { data: payload, error: null };
}

export const authClient = {
  signUp: {
    email: (input: { email: string; password: string; name: string; callbackURL?: string }) => post("/sign-up/email", input),
  },
  signIn: {
    email: (input: { email: string; password: string; callbackURL?: string; oauth_query?: string }) => post("/sign-in/email", input),
  },
  /** A person's answer on the consent page; the answer is where the client's redirect goes next. */
  oauthConsent: (input: { accept: boolean; oauth_query: string }) => post("/oauth2/consent", input),
  signOut: () => post("/sign-out"),
  sendVerificationEmail: (input: { email: string; callbackURL?: string }) => post("/send-verification-email", input),
  requestPasswordReset: (input: { email: string; redirectTo?: string }) => post("/request-password-reset", input),
  resetPassword: (input: { newPassword: string; token: string }) => post("/reset-password", input),
};

/**
 * The authorization request an MCP client started, when the OAuth provider
 * sent the person to this page with it: the provider signs every parameter of
 * that address (`sig`), and the sign-in or consent call hands them back so the
 * flow continues at the client.
 */
export function signedOAuthQuery(search: string): string | undefined {
  const params = new URLSearchParams(search);
  return params.has("sig") ? params.toString() : undefined;
}

/** A message for a person from an auth error, by the library's error code. */
export function authErrorMessage(error: { code?: string; message?: string; status?: number } | null | undefined): string {
  if (!error) return "Something went wrong. Please try again.";
  if (error.status === 429) return "Too many attempts. Wait a while, then try again.";
  switch (error.code) {
    case "INVALID_EMAIL_OR_PASSWORD":
      return "That email and password do not match an account.";
    case "EMAIL_NOT_VERIFIED":
      return "Verify your email first: we have sent you a new link.";
    case "PASSWORD_TOO_SHORT":
      return "Use at least 8 characters for your password.";
    case "PASSWORD_TOO_LONG":
      return "Use at most 128 characters for your password.";
    case "INVALID_EMAIL":
      return "Enter a valid email address.";
    case "INVALID_TOKEN":
      return "This link is invalid or has expired. Ask for a new one.";
    default:
      return error.message || "Something went wrong. Please try again.";
  }
}
