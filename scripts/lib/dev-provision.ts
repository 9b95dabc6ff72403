import fs from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { AgentError, readApiKey, saveApiKey } from "@/identity/agent";
import { writeFileAtomic } from "@/identity/files";
import { addPartnerKey, checkPartnerKey } from "@/identity/partners";
import type { IdentityStore } from "@/identity/store";
import { addUserKey, checkUserKey } from "@/identity/users";
import { createDb } from "@/lib/db/client";
import type { DatabaseTarget } from "@/lib/db/config";
import type { TDevAdmin } from "@/lib/dev/admin";
import { isAppError } from "@/lib/errors";
import { createUser } from "@/lib/users/mutations";
import { findVerifiedUserByEmail } from "@/lib/users/queries";

/**
 * What `npm run dev` sets up on first run and finds again on the next: the
 * app's partner key, the demo account on both sides, and the agent's key.
 * Each step keeps what still works and replaces only what does not.
 */

export const DEMO_EMAIL = "demo@example.com";
export const DEMO_PASSWORD = "demo-password";
/** The partner the local app verifies tokens as. */
const APP_PARTNER_EMAIL = "notes-dev@example.com";

const ZStackFileSchema = z.object({ partnerKey: z.string().min(1) });
type TStackFile = z.infer<typeof ZStackFileSchema>;

export type PartnerKeyOutcome = { partnerKey: string; created: boolean };

/** The partner key in dev-stack.json while the identity service still accepts it; otherwise a new one, saved there. */
export async function ensurePartnerKey(store: IdentityStore, stackFile: string): Promise<PartnerKeyOutcome> {
  const saved = await readStackFile(stackFile);
  if (saved && checkPartnerKey(await store.snapshot(), saved.partnerKey).status === "active") {
    return { partnerKey: saved.partnerKey, created: false };
  }
  const { partnerKey } = await addPartnerKey(store, { email: APP_PARTNER_EMAIL });
  await writeStackFile(stackFile, { partnerKey });
  return { partnerKey, created: true };
}

async function readStackFile(file: string): Promise<TStackFile | undefined> {
  const text = await fs.readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw error;
  });
  if (text === undefined) return undefined;
  try {
    const parsed = ZStackFileSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    // Unreadable: a new key replaces it.
    return undefined;
  }
}

async function writeStackFile(file: string, content: TStackFile): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  // The raw partner key is a secret: owner-only, like the identity service's own files.
  await writeFileAtomic(file, `${JSON.stringify(content, null, 2)}\n`, 0o600);
}

/**
 * Records the running app's admin access in dev-stack.json (or removes it,
 * with undefined), so `npm run users` can go through the app while it holds
 * the embedded database. The rest of the file is kept.
 */
export async function recordDevAdmin(stackFile: string, admin: TDevAdmin | undefined): Promise<void> {
  const text = await fs.readFile(stackFile, "utf8").catch(() => "{}");
  let content: Record<string, unknown>;
  try {
    content = JSON.parse(text) as Record<string, unknown>;
  } catch {
    content = {};
  }
  if (admin) content.admin = admin;
  else delete content.admin;
  await writeFileAtomic(stackFile, `${JSON.stringify(content, null, 2)}\n`, 0o600);
}

export type AgentKeyOutcome =
  | { action: "kept"; email: string }
  | { action: "saved"; email: string; file: string; reason: string };

/**
 * Leaves a saved agent key alone while this identity service accepts it
 * (whoever it belongs to); otherwise gives the demo user a new key and saves it.
 */
export async function ensureAgentKey(store: IdentityStore, agentConfigDir: string): Promise<AgentKeyOutcome> {
  const reason = await whySavedKeyFails(store, agentConfigDir);
  if (typeof reason !== "string") return { action: "kept", email: reason.email };
  const { apiKey, email } = await addUserKey(store, { email: DEMO_EMAIL });
  const file = await saveApiKey(agentConfigDir, apiKey);
  return { action: "saved", email, file, reason };
}

/** Why the saved key cannot mint tokens here, or whose it is when it can. */
async function whySavedKeyFails(store: IdentityStore, agentConfigDir: string): Promise<string | { email: string }> {
  let apiKey: string | undefined;
  try {
    apiKey = await readApiKey(agentConfigDir);
  } catch (error) {
    if (error instanceof AgentError) return "the saved credentials were unreadable";
    throw error;
  }
  if (!apiKey) return "no key was saved";
  const check = checkUserKey(await store.snapshot(), apiKey);
  if (check.status === "active") return { email: check.user.email };
  return check.status === "revoked" ? "the saved key was revoked" : "the saved key is unknown to this identity service";
}

export type NotesAccountOutcome = {
  demo: "created" | "exists";
  /** Whether the agent key's user (demo or the developer's own) can use the notes API. */
  agentHasAccount: boolean;
};

/**
 * Creates the demo account in the notes app, verified and with a password for
 * the browser. Opens and closes the database: the app opens it next.
 */
export async function ensureNotesAccount(target: DatabaseTarget, agentEmail: string): Promise<NotesAccountOutcome> {
  const handle = await createDb(target, { poolMax: 1 });
  try {
    const demo = await createDemoUser(handle.db);
    const agentHasAccount = (await findVerifiedUserByEmail(handle.db, agentEmail)) !== null;
    return { demo, agentHasAccount };
  } finally {
    await handle.close();
  }
}

async function createDemoUser(db: Parameters<typeof createUser>[0]): Promise<"created" | "exists"> {
  try {
    await createUser(db, { email: DEMO_EMAIL, password: DEMO_PASSWORD, name: "Demo", emailVerified: true });
    return "created";
  } catch (error) {
    if (isAppError(error, "ACCOUNT_EXISTS")) return "exists";
    throw error;
  }
}
