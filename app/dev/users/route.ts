import { getDb } from "@/lib/db/client";
import { DEV_ADMIN_HEADER, isDevAdmin, ZDevAddUserSchema, ZDevRemoveUserSchema } from "@/lib/dev/admin";
import { getEnv } from "@/lib/env";
import { AppError, toErrorResponse } from "@/lib/errors";
import { createUser, eraseUserByEmail } from "@/lib/users/mutations";
import { listUsers } from "@/lib/users/queries";

// Development only: `npm run users` goes through here while `npm run dev`
// holds the embedded database (lib/dev/admin.ts). Anything else gets a 404,
// as if the route did not exist.
function allowed(req: Request): boolean {
  const env = getEnv();
  return env.NODE_ENV === "development" && isDevAdmin(req.headers.get(DEV_ADMIN_HEADER), env.DEV_ADMIN_SECRET);
}

const notFound = () => toErrorResponse(new AppError("NOT_FOUND"));

// GET /dev/users – the accounts, as `npm run users -- list` prints them
export async function GET(req: Request): Promise<Response> {
  if (!allowed(req)) return notFound();
  try {
    return Response.json({ users: await listUsers(await getDb()) });
  } catch (err) {
    return toErrorResponse(err);
  }
}

// POST /dev/users – create a verified account, as `npm run users -- add` does
export async function POST(req: Request): Promise<Response> {
  if (!allowed(req)) return notFound();
  try {
    const parsed = ZDevAddUserSchema.safeParse(await req.json().catch(() => undefined));
    if (!parsed.success) throw new AppError("INVALID_BODY");
    const user = await createUser(await getDb(), parsed.data);
    return Response.json({ user }, { status: 201 });
  } catch (err) {
    return toErrorResponse(err);
  }
}

// DELETE /dev/users – erase an account and everything of it, as `npm run users -- remove` does
export async function DELETE(req: Request): Promise<Response> {
  if (!allowed(req)) return notFound();
  try {
    const parsed = ZDevRemoveUserSchema.safeParse(await req.json().catch(() => undefined));
    if (!parsed.success) throw new AppError("INVALID_BODY");
    return Response.json({ user: await eraseUserByEmail(await getDb(), parsed.data.email) });
  } catch (err) {
    return toErrorResponse(err);
  }
}
