import { createUser } from "@/lib/users/mutations";
import { apiClient } from "./api-client";
import { testEnv, type TestDbKind } from "./env";
import { startFakeIdentity, type FakeIdentity } from "./fake-identity";
import { startPgbouncer, type Pgbouncer } from "./pgbouncer";
import { startTestApp, type TestApp } from "./test-app";
import { createTestDatabase, type TestDatabase } from "./test-db";

export type SeededUser = { id: string; email: string; token(): string };

export type NotesStack = {
  app: TestApp;
  identity: FakeIdentity;
  database: TestDatabase;
  /** With TEST_PGBOUNCER=1 (or `pgbouncer: true`), the transaction-mode pooler the app reaches PostgreSQL through. */
  pgbouncer?: Pgbouncer;
  api: ReturnType<typeof apiClient>;
  /** A pre-seeded verified user no other test has used. */
  freshUser(): SeededUser;
  /** A seeded account whose email is not verified. */
  unverified: SeededUser;
  stop(): Promise<void>;
};

/**
 * A fresh database with seeded accounts, a fake identity service and the
 * production app on top, for one test file. Accounts are seeded before the app
 * starts because the embedded database belongs to one process at a time.
 */
export async function startNotesStack(
  kind: TestDbKind,
  options: { users?: number; env?: Record<string, string>; pgbouncer?: boolean } = {},
): Promise<NotesStack> {
  const identity = await startFakeIdentity();
  const database = await createTestDatabase(kind);
  const count = options.users ?? 30;
  const { users, unverified } = await database.withDb(async (db) => {
    const created = [];
    for (let i = 0; i < count; i += 1) created.push(await createUser(db, { email: `user${i}@example.com` }));
    const pending = await createUser(db, { email: "pending@example.com", emailVerified: false });
    return { users: created, unverified: pending };
  });
  const pgbouncer = kind === "postgres" && (options.pgbouncer ?? testEnv.TEST_PGBOUNCER) ? await startPgbouncer(database.url) : undefined;
  const app = await startTestApp({
    DATABASE_URL: pgbouncer ? pgbouncer.appUrl(database.url) : database.url,
    IDENTITY_API_URL: identity.url,
    IDENTITY_PARTNER_KEY: identity.partnerKey,
    ...options.env,
  });
  const withToken = (user: { id: string; email: string }): SeededUser => ({ ...user, token: () => identity.tokenFor(user.email) });
  let next = 0;
  return {
    app,
    identity,
    database,
    pgbouncer,
    api: apiClient(app.url),
    freshUser() {
      const user = users[next++];
      if (!user) throw new Error("Out of seeded users: raise `users`");
      return withToken(user);
    },
    unverified: withToken(unverified),
    async stop() {
      await app.stop();
      await pgbouncer?.stop();
      await identity.close();
      await database.drop();
    },
  };
}
