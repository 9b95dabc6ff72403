"use server";

import { revalidatePath } from "next/cache";
import { getCurrentUser } from "@/lib/auth/current-user";
import { disconnectClient } from "@/lib/auth/oauth";
import { getDb } from "@/lib/db/client";
import { isUnavailable, UNAVAILABLE_ACTION_MESSAGE } from "@/lib/errors";
import { eraseUser } from "@/lib/users/mutations";

/**
 * Erases the signed-in person's account and everything of it, once they have
 * typed its email to confirm. Their browser sessions go with it, so the next
 * page they load is signed out.
 */
export async function deleteAccountAction(confirmation: string): Promise<{ ok: true } | { ok: false; message: string }> {
  const user = await getCurrentUser();
  if (!user) return { ok: false, message: "You have been signed out. Sign in again to delete your account." };
  if (confirmation.trim().toLowerCase() !== user.email.toLowerCase()) return { ok: false, message: "Type your account’s email exactly to confirm." };
  try {
    await eraseUser(await getDb(), { userId: user.id });
    return { ok: true };
  } catch (err) {
    if (isUnavailable(err)) return { ok: false, message: UNAVAILABLE_ACTION_MESSAGE };
    throw err;
  }
}

/** Disconnects an MCP client from the signed-in person's account: its next request is refused. */
export async function disconnectClientAction(clientId: string): Promise<{ ok: true } | { ok: false; message: string }> {
  const user = await getCurrentUser();
  if (!user) return { ok: false, message: "You have been signed out. Sign in again to disconnect a client." };
  try {
    await disconnectClient(await getDb(), user.id, clientId);
    revalidatePath("/account");
    return { ok: true };
  } catch (err) {
    if (isUnavailable(err)) return { ok: false, message: UNAVAILABLE_ACTION_MESSAGE };
    throw err;
  }
}
