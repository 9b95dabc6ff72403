import { createAuthClient } from "better-auth/react";

/**
 * The browser side of sign-up, sign-in, sign-out, verification and password
 * reset: calls /api/auth/* on the page's own origin, cookies included.
 */
export const authClient = createAuthClient();

/** A message for a person from an auth error, by the library's error code. */
export function authErrorMessage(error: { code?: string; message?: string; status?: number } | null | undefined): string {
  if (!error) return "Something went wrong. Please try again.";
  if (error.status === 429) return "Too many attempts. Wait a minute, then try again.";
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
