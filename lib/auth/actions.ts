"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { CLIENT_ADDRESS_HEADER, getAuth } from "@/lib/auth/auth";
import { clientAddress } from "@/lib/auth/client-address";
import { completeSignUp } from "@/lib/auth/complete-sign-up";
import { limitAuthRequest } from "@/lib/auth/limits";
import { authSecret } from "@/lib/auth/secret";
import { getDb } from "@/lib/db/client";
import { getEnv } from "@/lib/env";

export type CompleteSignUpFormState = { error: string | null };

const MIN_PASSWORD = 8;
const MAX_PASSWORD = 128;

/** The verification page's form: proves the mailbox and sets the account's only password, then signs in. */
export async function completeSignUpAction(_previous: CompleteSignUpFormState, form: FormData): Promise<CompleteSignUpFormState> {
  const token = String(form.get("token") ?? "");
  const password = String(form.get("password") ?? "");
  if (password.length < MIN_PASSWORD) return { error: `Use at least ${MIN_PASSWORD} characters for your password.` };
  if (password.length > MAX_PASSWORD) return { error: `Use at most ${MAX_PASSWORD} characters for your password.` };
  if (password !== form.get("confirm")) return { error: "The two passwords are not the same." };

  const env = getEnv();
  const db = await getDb();
  const requestHeaders = new Headers(await headers());
  const address = clientAddress(requestHeaders, env);
  if (await limitAuthRequest(db, { operation: "linkUse", address })) return { error: "Too many attempts. Wait a while, then try again." };

  const result = await completeSignUp(db, { token, secret: authSecret(env), password });
  if (!result.ok) {
    return {
      error: result.state === "verified" ? "This email is verified already: sign in with your password." : "This link is invalid or has expired. Sign up again for a new one.",
    };
  }

  // Signed in with the password just chosen (the session cookie is set on this response).
  requestHeaders.delete(CLIENT_ADDRESS_HEADER);
  if (address) requestHeaders.set(CLIENT_ADDRESS_HEADER, address);
  const auth = await getAuth();
  const signedIn = await auth.api
    .signInEmail({ body: { email: result.email, password }, headers: requestHeaders })
    .then(() => true)
    .catch(() => false);
  redirect(signedIn ? "/notes" : `/sign-in?verified=1&email=${encodeURIComponent(result.email)}`);
}
