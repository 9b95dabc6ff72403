import http from "node:http";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_DB_KINDS } from "@/tests/helpers/env";
import { describeRequest, fuzzRequest, responseProblem, sendFuzzRequest, type FuzzRequest, type FuzzWorld } from "@/tests/helpers/fuzz-requests";
import { startNotesStack, type NotesStack, type SeededUser } from "@/tests/helpers/notes-app";

// 4,000 requests in the suite; FUZZ_RUNS=200000 for a long run, FUZZ_SEED for other requests or to replay one.
const RUNS = Number(process.env.FUZZ_RUNS ?? 4_000);
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_123);
const CONCURRENCY = Number(process.env.FUZZ_CONCURRENCY ?? 16);
// Generous: a bound on stalls, not a latency target.
const REQUEST_TIMEOUT_MS = 10_000;

describe.each(TEST_DB_KINDS)("hostile requests on every route (%s)", (kind) => {
  let stack: NotesStack;
  let writer: SeededUser;
  let victim: SeededUser;
  let agent: SeededUser;
  let world: FuzzWorld;

  beforeAll(async () => {
    stack = await startNotesStack(kind, { users: 4 });
    writer = stack.freshUser();
    victim = stack.freshUser();
    agent = stack.freshUser();
    const seed = async (user: SeededUser, notes: number, tags: number) => {
      const tagIds: string[] = [];
      for (let i = 0; i < tags; i += 1) {
        const res = await stack.api("/api/tags", { method: "POST", token: user.token(), json: { name: `tag ${i}` } });
        expect(res.status).toBe(201);
        tagIds.push(res.body.tag.id);
      }
      const noteIds: string[] = [];
      for (let i = 0; i < notes; i += 1) {
        const json = { title: `Note ${i}`, contentMarkdown: `# Note ${i}\n\nsome *text* ${i}`, tagIds: tagIds.slice(0, i % (tags + 1)) };
        const res = await stack.api("/api/notes", { method: "POST", token: user.token(), json });
        expect(res.status).toBe(201);
        noteIds.push(res.body.note.id);
      }
      return { noteIds, tagIds };
    };
    const own = await seed(writer, 20, 5);
    const foreign = await seed(victim, 8, 3);
    await seed(agent, 3, 1);
    const page = await stack.api("/api/notes?limit=2", { token: writer.token() });
    world = {
      restToken: writer.token(),
      mcpToken: agent.token(),
      unverifiedToken: stack.unverified.token(),
      strangerToken: stack.identity.tokenFor("nobody@example.com"),
      ownNoteIds: own.noteIds,
      ownTagIds: own.tagIds,
      foreignNoteIds: foreign.noteIds,
      foreignTagIds: foreign.tagIds,
      cursor: page.body.nextCursor,
    };
  });
  afterAll(() => stack?.stop());

  /** Everything of one user the API shows: every note in full, every tag. */
  async function snapshot(user: SeededUser) {
    const list = await stack.api("/api/notes?limit=500", { token: user.token() });
    const notes = [];
    for (const { id } of list.body.notes) notes.push((await stack.api(`/api/notes/${id}`, { token: user.token() })).body);
    const tags = (await stack.api("/api/tags", { token: user.token() })).body;
    return { total: list.body.total, notes, tags };
  }

  it(
    `${RUNS} generated requests (seed ${SEED}): no 5xx, every error JSON with error, none stalls, data intact`,
    async () => {
      const victimBefore = await snapshot(victim);
      const writerBefore = (await stack.api("/api/notes?limit=1", { token: writer.token() })).body.total as number;
      const writerTagsBefore = (await stack.api("/api/tags", { token: writer.token() })).body.tags.length as number;

      const requests = fc.sample(fuzzRequest(world), { seed: SEED, numRuns: RUNS });
      const base = new URL(stack.app.url);
      // With maxSockets set, Node's agent sends each queued request on a connection the one
      // before it has finished with, as clients do; no idle connection is kept that the
      // server could time out under a request.
      const httpAgent = new http.Agent({ keepAlive: false, maxSockets: CONCURRENCY });
      const failures: string[] = [];
      const examples = new Map<string, number>();
      const statuses = new Map<number, number>();
      let notesDelta = 0;
      let tagsDelta = 0;
      let next = 0;
      let slowest = 0;

      // Every failure counts; the first three of each kind are shown in full.
      const record = (request: FuzzRequest, problem: string, body = "") => {
        const shown = examples.get(problem) ?? 0;
        examples.set(problem, shown + 1);
        failures.push(shown < 3 ? `${problem}\n    ${describeRequest(request)}\n    → ${body.slice(0, 300)}` : problem);
      };
      const worker = async () => {
        while (next < requests.length) {
          const request = requests[next++]!;
          const started = performance.now();
          try {
            const response = await sendFuzzRequest(base, request, httpAgent, REQUEST_TIMEOUT_MS);
            slowest = Math.max(slowest, performance.now() - started);
            statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
            const problem = responseProblem(request, response);
            if (problem) record(request, problem, response.body.toString("utf8"));
            // The writer's REST writes, counted for the invariants below (MCP acts as another user).
            const actsAsWriter = request.headers["x-session-token"] === world.restToken || request.headers.__raw === `x-session-token: ${world.restToken}`;
            if (actsAsWriter && !request.path.startsWith("/api/mcp")) {
              const replayed = response.headers["idempotent-replayed"] === "true";
              if (response.status === 201 && !replayed) {
                const body = JSON.parse(response.body.toString("utf8"));
                if (body.note) notesDelta += 1;
                if (body.tag) tagsDelta += 1;
              }
              if (response.status === 204 && request.method === "DELETE") {
                if (request.path.startsWith("/api/notes/")) notesDelta -= 1;
                if (request.path.startsWith("/api/tags/")) tagsDelta -= 1;
              }
            }
          } catch (err) {
            record(request, `request failed: ${err instanceof Error ? err.message : String(err)}`);
          }
        }
      };
      const started = performance.now();
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
      httpAgent.destroy();
      const seconds = (performance.now() - started) / 1000;
      process.stdout.write(
        `fuzz (${kind}): ${requests.length} requests in ${seconds.toFixed(1)} s (${(requests.length / seconds).toFixed(0)}/s), slowest ${(slowest / 1000).toFixed(2)} s, ` +
          `statuses ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}, failures ${failures.length}\n`,
      );
      if (failures.length) process.stdout.write(`${JSON.stringify(Object.fromEntries(examples), null, 1)}\n${failures.filter((f) => f.includes("\n")).join("\n")}\n`);
      expect(failures, stack.app.output().slice(-4000)).toEqual([]);

      // The other user's notes and tags are exactly as before, whatever named their ids.
      expect(await snapshot(victim)).toEqual(victimBefore);
      // The writer has what its acknowledged writes say, no more and no less.
      expect((await stack.api("/api/notes?limit=1", { token: writer.token() })).body.total).toBe(writerBefore + notesDelta);
      expect((await stack.api("/api/tags", { token: writer.token() })).body.tags.length).toBe(writerTagsBefore + tagsDelta);

      // The stored counters and ownership, read from the database itself.
      await stack.app.stop();
      await stack.database.withDb(async (db) => {
        const userCounts = await db.$queryRaw<{ n: number }[]>`
          SELECT count(*)::int AS n FROM users u
          WHERE u.note_count <> (SELECT count(*) FROM notes n WHERE n.user_id = u.id)`;
        expect(userCounts[0]?.n).toBe(0);
        const tagCounts = await db.$queryRaw<{ n: number }[]>`
          SELECT count(*)::int AS n FROM tags t
          WHERE t.note_count <> (SELECT count(*) FROM note_tags nt WHERE nt.tag_id = t.id)`;
        expect(tagCounts[0]?.n).toBe(0);
        const crossOwner = await db.$queryRaw<{ n: number }[]>`
          SELECT count(*)::int AS n FROM note_tags nt
          JOIN notes n ON n.id = nt.note_id JOIN tags t ON t.id = nt.tag_id
          WHERE n.user_id <> t.user_id`;
        expect(crossOwner[0]?.n).toBe(0);
        const victimNotes = await db.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM notes WHERE user_id = ${victim.id}::uuid`;
        expect(victimNotes[0]?.n).toBe(victimBefore.total);
      });
    },
    Math.max(300_000, RUNS * 40),
  );
});
