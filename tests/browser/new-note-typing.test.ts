import type { Page, Route } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { screenshot, startBrowserStack, type BrowserStack } from "@/tests/helpers/browser";

// Nothing typed is lost, at any speed: keys typed from the moment "New note"
// is pressed land in the new note, in order, however slowly the server
// sends the new note's page. Each trial clicks New note and types at once, as a person does
// who knows where the focus goes: the title, Enter, then the body.
describe("typing straight after New note", () => {
  let stack: BrowserStack;
  let page: Page;
  const person = { email: "kai@example.com", password: "kai-password" };
  const token = () => stack.tokenFor(person.email);
  // Two trials per set: before the fix every trial lost characters (385 to
  // 490 per set of 20), so one would show it. NEW_NOTE_TRIALS=20 repeats the
  // measurement docs/performance.md reports.
  const TRIALS = Number(process.env.NEW_NOTE_TRIALS ?? 2);
  /** Every trial set's characters lost, reported at the end. */
  const report: string[] = [];

  beforeAll(async () => {
    stack = await startBrowserStack({ accounts: [person] });
    ({ page } = await stack.newPage());
    await stack.signIn(page, person);
  });
  afterAll(async () => {
    if (report.length > 0) process.stdout.write(`Characters lost per trial set:\n${report.join("\n")}\n`);
    await stack?.stop();
  });

  type NoteText = { title: string; contentText: string };
  const noteList = async () => (await stack.api("/api/notes?limit=100", { token: token() })).body.notes as (NoteText & { id: string })[];

  /** Characters of `expected` missing from `actual` (the length of `expected` less their longest common subsequence). */
  function charactersLost(expected: string, actual: string): number {
    let previous: number[] = new Array<number>(actual.length + 1).fill(0);
    for (const a of expected) {
      const row: number[] = [0];
      for (let j = 1; j <= actual.length; j++) row[j] = a === actual[j - 1] ? previous[j - 1]! + 1 : Math.max(previous[j]!, row[j - 1]!);
      previous = row;
    }
    return expected.length - previous[actual.length]!;
  }

  /**
   * Holds the request for the new note's page (the router's fetch of
   * /notes/<id>?new=1) until `release` is called: the page arrives only once
   * the person has typed everything.
   */
  async function holdPage(): Promise<{ release: () => void; held: Promise<void>; noteIds: Set<string>; stop: () => Promise<void> }> {
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    let arrived = () => {};
    const held = new Promise<void>((resolve) => (arrived = resolve));
    /** The held request, until it has gone on to the server. */
    let holding: Promise<void> | null = null;
    /** The new notes whose page was asked for. */
    const noteIds = new Set<string>();
    const pattern = /\/notes\/[0-9a-f-]{36}\?new=1/;
    const handler = async (route: Route) => {
      if (route.request().method() !== "GET") return route.continue();
      noteIds.add(new URL(route.request().url()).pathname.split("/")[2]!);
      arrived();
      holding = released.then(() => route.continue().catch(() => undefined));
      await holding;
    };
    await page.route(pattern, handler);
    return {
      release,
      held,
      noteIds,
      stop: async () => {
        await holding;
        await page.unroute(pattern, handler);
      },
    };
  }

  async function runTrials(name: string, delay: number, slow: boolean): Promise<number[]> {
    const lost: number[] = [];
    for (let trial = 0; trial < TRIALS; trial++) {
      // The title and body have the shortcut keys in them: N, / and ? must be typed, not obeyed.
      const title = `N${trial} new /? note`;
      const body = `nine notes, ${delay} ms n`;
      await page.goto("/notes");
      // The list is ready for a person: the button works and the shortcuts listen.
      await page.locator("html[data-shortcuts=ready]").waitFor({ state: "attached" });
      const before = new Set((await noteList()).map((note) => note.id));
      const hold = slow ? await holdPage() : null;

      await page.getByRole("button", { name: "New note" }).first().click();
      await page.keyboard.type(title, { delay });
      await page.keyboard.press("Enter");
      await page.keyboard.type(body, { delay });
      if (hold) {
        await hold.held;
        if (trial === 0) await screenshot(page, `new-note-typing-${name}-before-created`);
        hold.release();
      }

      // The note made in this trial, once its saved text stops changing towards what was typed.
      const expected = `${title}\n${body}`;
      let latest = "";
      await expect
        .poll(
          async () => {
            const made = (await noteList()).filter((note) => !before.has(note.id));
            latest = made.map((note) => `${note.title}\n${note.contentText}`).join("\n");
            return made.length === 1 ? latest : null;
          },
          { timeout: 5_000 },
        )
        .toBe(expected)
        .catch(() => {});
      lost.push(charactersLost(expected, latest));
      if (trial === 0) await screenshot(page, `new-note-typing-${name}`);
      await hold?.stop();
    }
    report.push(`  ${name}: ${lost.join(" ")} (total ${lost.reduce((sum, n) => sum + n, 0)})`);
    return lost;
  }

  it("at 20 ms a key, every key lands in the new note, in order", async () => {
    expect(await runTrials("20ms", 20, false)).toEqual(new Array(TRIALS).fill(0));
  }, 600_000);

  it("at 80 ms a key, every key lands in the new note, in order", async () => {
    expect(await runTrials("80ms", 80, false)).toEqual(new Array(TRIALS).fill(0));
  }, 600_000);

  it("at 20 ms a key with the server sending the note's page only after the last key, none is lost", async () => {
    expect(await runTrials("20ms-slow-server", 20, true)).toEqual(new Array(TRIALS).fill(0));
  }, 600_000);

  it("at 80 ms a key with the server sending the note's page only after the last key, none is lost", async () => {
    expect(await runTrials("80ms-slow-server", 80, true)).toEqual(new Array(TRIALS).fill(0));
  }, 600_000);

  it("no trial made more than its one note, and none is left Untitled", async () => {
    const notes = await noteList();
    expect(notes.length).toBe(4 * TRIALS);
    expect(notes.filter((note) => note.title === "Untitled")).toEqual([]);
  });

  describe("while the new note's page loads", () => {
    let before: Set<string>;
    const made = async () => (await noteList()).filter((note) => !before.has(note.id));

    beforeEach(async () => {
      await page.goto("/notes");
      await page.locator("html[data-shortcuts=ready]").waitFor({ state: "attached" });
      before = new Set((await noteList()).map((note) => note.id));
    });

    it("N does nothing: one press of New note opens one note", async () => {
      const hold = await holdPage();
      await page.getByRole("button", { name: "New note" }).first().click();
      await hold.held;
      await page.locator("#new-note-title").blur();
      await page.keyboard.press("n");
      await page.keyboard.press("N");
      hold.release();
      await page.waitForURL(/\/notes\/[0-9a-f-]{36}\?new=1$/);
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("note-title");
      await hold.stop();
      expect([...hold.noteIds]).toEqual([new URL(page.url()).pathname.split("/")[2]]);
      await page.keyboard.type("One note");
      await expect.poll(async () => (await made()).map((note) => note.title)).toEqual(["One note"]);
    });

    it("Markdown shortcuts typed before its editor came make their blocks, and typing goes on at the end", async () => {
      const hold = await holdPage();
      await page.getByRole("button", { name: "New note" }).first().click();
      await page.keyboard.type("Groceries");
      await page.keyboard.press("Enter");
      // As typed into the editor: a heading, two list items, Enter twice to leave the list, then a "/" typed, not obeyed.
      for (const line of ["# Shopping", "- milk", "- eggs", "", "all / done"]) {
        if (line !== "# Shopping") await page.keyboard.press("Enter");
        await page.keyboard.type(line);
      }
      await hold.held;
      hold.release();
      await hold.stop();
      await expect.poll(() => page.evaluate(() => document.activeElement?.closest(".bn-editor") !== null)).toBe(true);
      await page.keyboard.type(" today");
      const blocks = async () => {
        const [note] = await made();
        if (!note) return null;
        const { body } = await stack.api(`/api/notes/${note.id}`, { token: token() });
        return (body.note.content as { type: string; content: { text: string }[] }[]).map((block) => `${block.type}: ${block.content.map((part) => part.text).join("")}`);
      };
      await expect.poll(blocks).toEqual(["heading: Shopping", "bulletListItem: milk", "bulletListItem: eggs", "paragraph: all / done today"]);
      expect(await page.locator(".bn-suggestion-menu").count()).toBe(0);
    });

    it("left through a link before its page came, untouched, it leaves nothing behind", async () => {
      const hold = await holdPage();
      await page.getByRole("button", { name: "New note" }).first().click();
      await hold.held;
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Tags" }).click();
      await page.waitForURL(/\/tags$/);
      hold.release();
      await hold.stop();
      expect(await made()).toEqual([]);
      expect((await stack.api("/api/trash", { token: token() })).body.total).toBe(0);
    });

    it("left with Back before its page came, with a title typed, the note is made with what was typed", async () => {
      // Back from the list goes to the tags page, inside the app.
      await page.goto("/tags");
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Notes" }).click();
      await page.waitForURL(/\/notes$/);
      const hold = await holdPage();
      await page.getByRole("button", { name: "New note" }).first().click();
      await page.keyboard.type("Kept on the way out");
      await page.keyboard.press("Enter");
      await page.keyboard.type("with its body");
      await hold.held;
      // Back leaves the new note: for the tags page, or for the list where the address already showed the note's page.
      await page.goBack();
      await page.waitForURL((url) => !/\/notes\/[0-9a-f-]{36}/.test(url.pathname));
      hold.release();
      await hold.stop();
      await expect
        .poll(async () => (await made()).map((note) => `${note.title}|${note.contentText}`))
        .toEqual(["Kept on the way out|with its body"]);
      // The browser kept the text until the save was acknowledged, and not after.
      await expect.poll(() => page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith("notes:draft:")))).toEqual([]);
    });
  });
});
