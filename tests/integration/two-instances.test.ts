import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "@/lib/users/mutations";
import { apiClient, type ApiRequest, type ApiResponse } from "@/tests/helpers/api-client";
import { testEnv } from "@/tests/helpers/env";
import { startNotesStack, type NotesStack } from "@/tests/helpers/notes-app";
import { startTestApp, type TestApp } from "@/tests/helpers/test-app";

// Two `next start` processes on one PostgreSQL database, as two instances
// behind a load balancer: requests alternate between them and everything that
// must hold across instances (idempotency keys, counts, rate limits, browser
// sessions) lives in the database. PostgreSQL only: the embedded database
// belongs to one process.
describe.skipIf(!testEnv.TEST_DATABASE_URL)("two instances on one database (postgres)", () => {
  let stack: NotesStack;
  let second: TestApp;
  let instances: ((path: string, request?: ApiRequest) => Promise<ApiResponse>)[];
  let turn = 0;
  /** The next request goes to the other instance. */
  const api = (path: string, request?: ApiRequest) => instances[turn++ % 2]!(path, request);

  beforeAll(async () => {
    // One secret for both, as every instance of a deployment shares it.
    const shared = { BETTER_AUTH_SECRET: randomBytes(32).toString("base64") };
    stack = await startNotesStack("postgres", { env: shared });
    second = await startTestApp({
      DATABASE_URL: stack.database.url,
      IDENTITY_API_URL: stack.identity.url,
      IDENTITY_PARTNER_KEY: stack.identity.partnerKey,
      ...shared,
    });
    instances = [stack.api, apiClient(second.url)];
  });
  afterAll(async () => {
    await second?.stop();
    await stack?.stop();
  });

  it("an Idempotency-Key replays on the other instance, and concurrent first uses on both create once", async () => {
    const user = stack.freshUser();
    const key = randomUUID();
    const json = { title: "Standup", contentText: "shipped" };
    const first = await stack.api("/api/notes", { method: "POST", token: user.token(), json, headers: { "idempotency-key": key } });
    const replay = await instances[1]!("/api/notes", { method: "POST", token: user.token(), json, headers: { "idempotency-key": key } });
    expect(first.status).toBe(201);
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body).toEqual(first.body);

    const raced = randomUUID();
    const both = await Promise.all(
      [0, 1, 0, 1].map((i) =>
        instances[i]!("/api/notes", { method: "POST", token: user.token(), json: { title: "Raced" }, headers: { "idempotency-key": raced } }),
      ),
    );
    expect(both.map((res) => res.status)).toEqual([201, 201, 201, 201]);
    expect(new Set(both.map((res) => res.body.note.id)).size).toBe(1);
    const list = await api("/api/notes?search=Raced", { token: user.token() });
    expect(list.body.total).toBe(1);
  });

  it("tagged writes from clients spread over both instances: no errors, counts agree on both", async () => {
    const user = stack.freshUser();
    const tags: string[] = [];
    for (const name of ["one", "two", "three"]) tags.push((await api("/api/tags", { method: "POST", token: user.token(), json: { name } })).body.tag.id);
    const statuses: number[] = [];
    let created = 0;
    await Promise.all(
      Array.from({ length: 6 }, async (_, client) => {
        for (let i = 0; i < 12; i += 1) {
          const tagIds = [tags[(client + i) % 3], tags[(client + i + 1) % 3]];
          const res = await api("/api/notes", { method: "POST", token: user.token(), json: { title: `n ${client} ${i}`, tagIds } });
          statuses.push(res.status);
          if (res.status !== 201) continue;
          created += 1;
          if (i % 4 === 0) statuses.push((await api(`/api/notes/${res.body.note.id}`, { method: "DELETE", token: user.token() })).status);
          else statuses.push((await api(`/api/notes/${res.body.note.id}`, { method: "PATCH", token: user.token(), json: { tagIds: [tags[i % 3]] } })).status);
        }
      }),
    );
    expect(statuses.filter((status) => status >= 300)).toEqual([]);
    const deleted = 6 * 3;
    for (const instance of instances) {
      const all = await instance("/api/notes?limit=500", { token: user.token() });
      expect(all.body.total).toBe(created - deleted);
      expect(all.body.notes).toHaveLength(created - deleted);
      for (const tagId of tags) {
        const byTag = await instance(`/api/notes?tagId=${tagId}&limit=500`, { token: user.token() });
        expect(byTag.body.total).toBe(all.body.notes.filter((note: { tags: { id: string }[] }) => note.tags.some((tag) => tag.id === tagId)).length);
      }
    }
  });

  it("sign-in attempts are counted once for both instances, and a browser session works on either", async () => {
    const email = `browser-${randomUUID().slice(0, 8)}@example.com`;
    await stack.database.withDb((db) => createUser(db, { email, password: "correct horse battery" }));
    const origins = [stack.app.url, second.url];
    const signIn = (i: number, password: string) =>
      fetch(`${origins[i % 2]}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: origins[i % 2]! },
        body: JSON.stringify({ email, password }),
      });

    const session = await signIn(0, "correct horse battery");
    expect(session.status).toBe(200);
    const cookie = session.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ");
    const page = await fetch(`${second.url}/notes`, { headers: { cookie }, redirect: "manual" });
    expect(page.status).toBe(200);

    // The sign-in limit is per client address over a window; one instance's
    // count must hold on the other, so fewer attempts pass than two separate
    // counters would let through.
    const statuses: number[] = [];
    for (let i = 0; i < 14; i += 1) statuses.push((await signIn(i, "wrong password")).status);
    const allowed = statuses.filter((status) => status !== 429).length;
    expect(statuses).toContain(429);
    expect(allowed).toBeLessThan(10);
  });
});
