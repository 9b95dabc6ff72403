import { timingSafeEqual } from "node:crypto";
import { z } from "zod";

/**
 * `npm run users` while `npm run dev` runs: the embedded database can be open
 * in one process only, and that is the app's. So the command asks the running
 * app (a development build started by `npm run dev`) to do it, authenticated
 * by a per-run secret that `npm run dev` keeps in .data/dev-stack.json (0600).
 */

/** Header carrying the secret. */
export const DEV_ADMIN_HEADER = "x-dev-admin-secret";
/** Path of the route in the app. */
export const DEV_ADMIN_PATH = "/dev/users";

/** What `npm run dev` records in dev-stack.json while it runs. */
export const ZDevAdminSchema = z.object({
  /** Base URL of the running app on loopback. */
  url: z.string(),
  secret: z.string().min(32),
  /** The `npm run dev` process. */
  pid: z.number().int(),
  /** DATABASE_URL of the running app, so a command for another database never lands here. */
  databaseUrl: z.string(),
});
export type TDevAdmin = z.infer<typeof ZDevAdminSchema>;

export const ZDevAddUserSchema = z.object({
  email: z.string(),
  password: z.string().optional(),
  name: z.string().optional(),
});

export const ZDevRemoveUserSchema = z.object({ email: z.string() });

/** Constant-time check of the presented secret against the configured one (none configured: never). */
export function isDevAdmin(presented: string | null, configured: string | undefined): boolean {
  if (!configured || !presented) return false;
  const a = Buffer.from(presented);
  const b = Buffer.from(configured);
  return a.length === b.length && timingSafeEqual(a, b);
}
