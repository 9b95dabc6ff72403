import { afterAll, beforeAll, expect } from "vitest";
import { createUser } from "@/lib/users/mutations";
import { apiClient } from "./api-client";
import { testEnv, type TestDbKind } from "./env";
import { startFakeIdentity, type FakeIdentity } from "./fake-identity";
import { startInProcessApp, type InProcessApp } from "./in-process-app";
import { startPgbouncer, type Pgbouncer } from "./pgbouncer";
import { startTestApp, type TestApp } from "./test-app";
import { createTestDatabase, type TestDatabase } from "./test-db";

export type SeededUser = { id: string; email: string; token(): string };

/** A note as the API answers it (the fields tests read). */
type TestNote = {
  id: string;
  title: string;
  content: unknown;
  contentText: string;
  pinned: boolean;
  createdAt: string;
  updatedAt: string;
  tags: { id: string; name: string }[];
};

/** The app of a stack: a production server process (TestApp), or its route handlers in the test's process (InProcessApp). */
type StackApp = { url: string; output(): string; stop(): Promise<void> };

export type NotesStack<App extends StackApp = TestApp> = {
  app: App;
  identity: FakeIdentity;
  database: TestDatabase;
  /** With TEST_PGBOUNCER=1 (or `pgbouncer: true`), the transaction-mode pooler the app reaches PostgreSQL through. */
  pgbouncer?: Pgbouncer;
  api: ReturnType<typeof apiClient>;
  /** A pre-seeded verified user no other test has used. */
  freshUser(): SeededUser;
  /** A seeded account whose email is not verified. */
  unverified: SeededUser;
  /** POST /api/notes as `user`; fails the test unless it answers 201. The created note. */
  createNote<T = TestNote>(user: SeededUser, body: Record<string, unknown>): Promise<T>;
  stop(): Promise<void>;
};

/**
 * A fresh database with seeded accounts, a fake identity service and the
 * production app on top, for one test file. Accounts are seeded before the app
 * starts because the embedded database belongs to one process at a time.
 */
export function startNotesStack(kind: TestDbKind, options: StackOptions = {}): Promise<NotesStack> {
  return startStack(kind, options, startTestApp);
}

type StackOptions = { users?: number; env?: Record<string, string>; pgbouncer?: boolean };

/**
 * The same stack with the app's route handlers called in the test's own
 * process (tests/helpers/in-process-app.ts) instead of a server process: the
 * same database, fake identity service, accounts and API client, no build.
 */
function startApiStack(kind: TestDbKind, options: StackOptions = {}): Promise<NotesStack<InProcessApp>> {
  return startStack(kind, options, startInProcessApp);
}

async function startStack<App extends StackApp>(
  kind: TestDbKind,
  options: StackOptions,
  startApp: (env: Record<string, string>) => Promise<App>,
): Promise<NotesStack<App>> {
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
  const app = await startApp({
    DATABASE_URL: pgbouncer ? pgbouncer.appUrl(database.url) : database.url,
    IDENTITY_API_URL: identity.url,
    IDENTITY_PARTNER_KEY: identity.partnerKey,
    ...options.env,
  });
  const withToken = (user: { id: string; email: string }): SeededUser => ({ ...user, token: () => identity.tokenFor(user.email) });
  let next = 0;
  const api = apiClient(app.url);
  return {
    app,
    identity,
    database,
    pgbouncer,
    api,
    freshUser() {
      const user = users[next++];
      if (!user) throw new Error("Out of seeded users: raise `users`");
      return withToken(user);
    },
    unverified: withToken(unverified),
    async createNote(user, body) {
      const res = await api("/api/notes", { method: "POST", token: user.token(), json: body });
      expect(res.status, res.text).toBe(201);
      return res.body.note;
    },
    async stop() {
      await app.stop();
      await pgbouncer?.stop();
      await identity.close();
      await database.drop();
    },
  };
}

/**
 * The stack for one `describe` block: started before its tests, stopped after
 * them. The handle it returns is usable inside the tests and hooks.
 */
export function useNotesStack(kind: TestDbKind, options: StackOptions = {}): NotesStack {
  return useStack(() => startNotesStack(kind, options));
}

/** useNotesStack with the route handlers in the test's process (startApiStack). */
export function useApiStack(kind: TestDbKind, options: StackOptions = {}): NotesStack<InProcessApp> {
  return useStack(() => startApiStack(kind, options));
}

function useStack<Stack extends NotesStack<StackApp>>(start: () => Promise<Stack>): Stack {
  let stack: Stack | undefined;
  beforeAll(async () => {
    stack = await start();
  });
  afterAll(() => stack?.stop());
  return new Proxy({} as Stack, {
    get(_, key) {
      if (!stack) throw new Error("The notes stack is used before its beforeAll hook ran");
      return stack[key as keyof Stack];
    },
  });
}
