import "server-only";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { getAuth } from "@/lib/auth/auth";
import { appOrigin } from "@/lib/auth/origin";
import { noteRequestAccount } from "@/lib/server/request-log";

export type CurrentUser = { id: string; email: string; name: string };

/**
 * The signed-in person of this request, or null. Cached per request so the
 * layout and the page verify the session cookie once. Only accounts whose
 * email is verified count: the email joins the account to the identity service.
 */
export const getCurrentUser = cache(async (): Promise<CurrentUser | null> => {
  // Headers first: they make the page dynamic before anything can fail at build time.
  const requestHeaders = await headers();
  const auth = await getAuth();
  const session = await auth.api.getSession({ headers: requestHeaders });
  if (!session || !session.user.emailVerified) return null;
  noteRequestAccount(session.user.id);
  return { id: session.user.id, email: session.user.email, name: session.user.name };
});

/** The signed-in person, or a redirect to sign-in that comes back to `returnTo`. */
export async function requireUser(returnTo?: string): Promise<CurrentUser> {
  const user = await getCurrentUser();
  if (!user) redirect(returnTo ? `/sign-in?next=${encodeURIComponent(returnTo)}` : "/sign-in");
  return user;
}

/** A same-site path to continue to after signing in; anything else becomes /notes. */
export function safeReturnPath(value: string | string[] | undefined): string {
  const path = Array.isArray(value) ? value[0] : value;
  if (!path || !path.startsWith("/") || path.startsWith("//") || path.includes("\\")) return "/notes";
  return path;
}

/** This app's public base URL (APP_URL), for pages that show it; never taken from the request. */
export async function getPublicBaseUrl(): Promise<string> {
  // Reading the headers keeps pages that show it dynamic: APP_URL is read at run time, not at build.
  await headers();
  return appOrigin();
}
