import { describe, expect, it } from "vitest";
import { seededRandom } from "@/bench/generate";
import { TEST_DB_KINDS } from "@/tests/helpers/env";
import { useApiStack, type SeededUser } from "@/tests/helpers/notes-app";

describe.each(TEST_DB_KINDS)("search through the token index, counters and cursors (%s)", (kind) => {
  const stack = useApiStack(kind, { users: 12 });

  const create = (user: SeededUser, body: Record<string, unknown>) => stack.createNote<{ id: string; title: string; updatedAt: string }>(user, body);
  const search = async (user: SeededUser, query: string) => {
    const res = await stack.api(`/api/notes?limit=500&search=${encodeURIComponent(query)}`, { token: user.token() });
    expect(res.status).toBe(200);
    return (res.body.notes as { title: string }[]).map((n) => n.title).sort();
  };

  it("finds a term inside a token, next to punctuation, across case and outside ASCII", async () => {
    const user = stack.freshUser();
    await create(user, { title: "Budget.", contentText: "(meeting-notes) about the Ünïcödé ROADMAP," });
    await create(user, { title: "Other", contentText: "nothing here" });
    for (const term of ["budget", "udge", "meeting-notes", "eting-no", "roadmap,", "ÜNÏCÖDÉ", "ünï", "(meeting"]) {
      expect(await search(user, term), term).toEqual(["Budget."]);
    }
    expect(await search(user, "budget roadmap")).toEqual(["Budget."]);
    expect(await search(user, "budget nothing")).toEqual([]);
  });

  it("short terms and tokens too long to index still match as substrings", async () => {
    const user = stack.freshUser();
    const blob = `data:${"x".repeat(60)}QUOKKA${"y".repeat(80)}`;
    await create(user, { title: "Blob", contentText: `see ${blob} end` });
    await create(user, { title: "ab", contentText: "tiny" });
    expect(await search(user, "quokka")).toEqual(["Blob"]);
    expect(await search(user, blob.slice(10, 130))).toEqual(["Blob"]);
    expect(await search(user, "ab")).toEqual(["ab"]);
    expect(await search(user, "x")).toEqual(["Blob"]);
    expect(await search(user, "end")).toEqual(["Blob"]);
  });

  it("re-indexes on a PATCH of either field, keeping the other", async () => {
    const user = stack.freshUser();
    const note = await create(user, { title: "Alpha title", contentText: "bravo body" });
    await stack.api(`/api/notes/${note.id}`, { method: "PATCH", token: user.token(), json: { title: "Charlie title" } });
    expect(await search(user, "alpha")).toEqual([]);
    expect(await search(user, "charlie bravo")).toEqual(["Charlie title"]);
    await stack.api(`/api/notes/${note.id}`, { method: "PATCH", token: user.token(), json: { contentText: "delta body" } });
    expect(await search(user, "bravo")).toEqual([]);
    expect(await search(user, "charlie delta")).toEqual(["Charlie title"]);
  });

  it("agrees with a plain substring match on random notes and terms", async () => {
    const user = stack.freshUser();
    const random = seededRandom(7);
    const words = ["tea", "team", "steam", "Meet", "meeting", "MEETINGS", "a", "ab", "abc", "50%", "x_y", "c:\\dir", "über", "ÜBERALL"];
    const pick = () => words[Math.floor(random() * words.length)]!;
    const texts: string[] = [];
    for (let i = 0; i < 25; i += 1) {
      const text = Array.from({ length: 1 + Math.floor(random() * 6) }, pick).join(random() < 0.5 ? " " : "\n");
      texts.push(text);
      await create(user, { title: `n${i}`, contentText: text });
    }
    const terms = [...new Set([...words, "eam", "eet", "%", "_", "\\", "über", "Über", "team steam", "meet a"])];
    for (const term of terms) {
      const parts = term.split(" ");
      const expected = texts
        .map((text, i) => ({ text: `n${i} ${text}`.toLowerCase(), title: `n${i}` }))
        .filter(({ text }) => parts.every((part) => text.includes(part.toLowerCase())))
        .map(({ title }) => title)
        .sort();
      expect(await search(user, term), term).toEqual(expected);
    }
  });

  it("sort=relevance ranks title matches, then whole words, then word starts; highlight marks the matches", async () => {
    const user = stack.freshUser();
    const prefix = await create(user, { title: "Zoo trip", contentText: "wombats everywhere" });
    const word = await create(user, { title: "Zoo log", contentText: "a WOMBAT <b>dug</b> & left" });
    const title = await create(user, { title: "Wombat care", contentText: "feeding notes" });
    const inside = await create(user, { title: "Misc", contentText: "the mywombatclub met" });
    // Newest last: the default order is the reverse of creation.
    const list = async (query: string) => {
      const res = await stack.api(`/api/notes?search=wombat${query}`, { token: user.token() });
      expect(res.status).toBe(200);
      return res.body as { notes: { id: string; snippet?: string }[]; total: number; nextCursor?: string };
    };
    expect((await list("")).notes.map((n) => n.id)).toEqual([inside.id, title.id, word.id, prefix.id]);
    const ranked = await list("&sort=relevance&limit=2");
    expect(ranked.notes.map((n) => n.id)).toEqual([title.id, word.id]);
    expect(ranked).toMatchObject({ total: 4 });
    expect(ranked.nextCursor).toBeUndefined();
    expect((await list("&sort=relevance&limit=2&offset=2")).notes.map((n) => n.id)).toEqual([prefix.id, inside.id]);
    // Without highlight the notes are exactly the contract's Note.
    expect((await list("")).notes[0]).not.toHaveProperty("snippet");

    const highlighted = await list("&sort=relevance&highlight=true");
    const snippets = Object.fromEntries(highlighted.notes.map((n) => [n.id, n.snippet]));
    expect(snippets[word.id]).toBe("a <mark>WOMBAT</mark> &lt;b&gt;dug&lt;/b&gt; &amp; left");
    expect(snippets[prefix.id]).toBe("<mark>wombat</mark>s everywhere");
    expect(snippets[inside.id]).toBe("the my<mark>wombat</mark>club met");
    expect(snippets[title.id]).toBe("feeding notes");

    const bad = await stack.api(`/api/notes?search=wombat&sort=relevance&cursor=${encodeURIComponent(ranked.nextCursor ?? "x")}`, { token: user.token() });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe("Invalid query parameters");
    for (const query of ["sort=best", "highlight=yes"]) {
      expect((await stack.api(`/api/notes?search=wombat&${query}`, { token: user.token() })).status, query).toBe(400);
    }
  });

  it("highlights folded matches where folding changes a word's length", async () => {
    const user = stack.freshUser();
    await create(user, { title: "Straße", contentText: "Die STRASSE und die Straße, ΚΟΣΜΟΣ" });
    const res = await stack.api(`/api/notes?search=${encodeURIComponent("strasse κοσμος")}&highlight=true`, { token: user.token() });
    expect(res.body.notes[0].snippet).toBe("Die <mark>STRASSE</mark> und die <mark>Straße</mark>, <mark>ΚΟΣΜΟΣ</mark>");
  });

  it("keeps totals exact through creates, deletes and tag changes", async () => {
    const user = stack.freshUser();
    const tag = (await stack.api("/api/tags", { method: "POST", token: user.token(), json: { name: "t" } })).body.tag;
    const total = async (query = "") => (await stack.api(`/api/notes${query}`, { token: user.token() })).body.total;
    const a = await create(user, { title: "a", tagIds: [tag.id] });
    const b = await create(user, { title: "b", tagIds: [tag.id] });
    await create(user, { title: "c" });
    expect([await total(), await total(`?tagId=${tag.id}`)]).toEqual([3, 2]);
    await stack.api(`/api/notes/${a.id}`, { method: "DELETE", token: user.token() });
    expect([await total(), await total(`?tagId=${tag.id}`)]).toEqual([2, 1]);
    await stack.api(`/api/notes/${b.id}`, { method: "PATCH", token: user.token(), json: { tagIds: [] } });
    expect(await total(`?tagId=${tag.id}`)).toBe(0);
    await stack.api(`/api/notes/${b.id}`, { method: "PATCH", token: user.token(), json: { tagIds: [tag.id] } });
    expect(await total(`?tagId=${tag.id}`)).toBe(1);
    await stack.api(`/api/tags/${tag.id}`, { method: "DELETE", token: user.token() });
    expect([await total(), await total(`?tagId=${tag.id}`)]).toEqual([2, 0]);
  });

  it("nextCursor walks every note once, in list order, with or without a search", async () => {
    const user = stack.freshUser();
    for (let i = 0; i < 23; i += 1) await create(user, { title: `Page ${i}`, contentText: i % 2 ? "odd" : "even" });
    for (const query of ["", "&search=odd"]) {
      const all = (await stack.api(`/api/notes?limit=500${query}`, { token: user.token() })).body;
      expect(all.nextCursor).toBeUndefined();
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const res = await stack.api(`/api/notes?limit=5${query}${cursor ? `&cursor=${cursor}` : ""}`, { token: user.token() });
        expect(res.status).toBe(200);
        expect(res.body.total).toBe(all.total);
        seen.push(...res.body.notes.map((n: { id: string }) => n.id));
        cursor = res.body.nextCursor;
      } while (cursor);
      expect(seen).toEqual(all.notes.map((n: { id: string }) => n.id));
    }
    // A term in every note makes small pages walk the list order instead of
    // collecting matches from the index: the same notes, in the same order.
    const every = (await stack.api("/api/notes?limit=500&search=page", { token: user.token() })).body;
    expect(every.total).toBe(23);
    const walked: string[] = [];
    for (let offset = 0; offset < 23; offset += 1) {
      const res = await stack.api(`/api/notes?limit=1&offset=${offset}&search=page`, { token: user.token() });
      expect(res.body.total).toBe(23);
      walked.push(res.body.notes[0].id);
    }
    expect(walked).toEqual(every.notes.map((n: { id: string }) => n.id));
    const bad = await stack.api("/api/notes?cursor=not-a-cursor", { token: user.token() });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe("Invalid query parameters");
  });
});
