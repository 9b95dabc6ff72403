import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { editorBody, screenshot, startBrowserStack, waitForSaved, type BrowserStack } from "@/tests/helpers/browser";
import { allBlocks, clickBelowLastBlock, openNewNote, openSlashMenu, pickFromSlashMenu, storedNote, type StoredBlock } from "@/tests/helpers/editor";

/** What a person does with one slash-menu item, and what must be stored and shown after a reload. */
type SlashItem = {
  /** The stored block the item makes: its type and the props it must have. */
  block: { type: string; props?: Record<string, unknown>; url?: string };
  /** After picking the item (the cursor is where BlockNote put it); returns the text typed, which must come back. */
  fill: (page: Page, stack: BrowserStack) => Promise<string>;
  /** False where the text goes into the paragraph below the block (a divider or an embed holds none). */
  holdsText?: false;
};

const typeText = (text: string) => async (page: Page) => {
  await page.keyboard.type(text);
  return text;
};

/** Image, video, audio, file: embedded by URL (the panel opens on Upload; Embed is its other tab), then a line typed below. */
const embed = (kind: "image" | "video" | "audio" | "file", path: string): SlashItem => ({
  block: { type: kind, url: path },
  holdsText: false,
  fill: async (page, stack) => {
    const url = `${stack.app.url}${path}`;
    await page.getByRole("tab", { name: "Embed" }).click();
    await page.getByPlaceholder("Enter URL").fill(url);
    await page.getByRole("button", { name: `Embed ${kind}` }).click();
    await editorBody(page).locator(`[data-content-type="${kind}"]`).waitFor();
    await clickBelowLastBlock(page);
    const text = `Below the ${kind}`;
    await page.keyboard.type(text);
    return text;
  },
});

const heading = (level: number, isToggleable = false): SlashItem => ({
  block: { type: "heading", props: isToggleable ? { level, isToggleable: true } : { level } },
  fill: typeText(`${isToggleable ? "Toggle heading" : "Heading"} level ${level}`),
});

/**
 * Every item of the editor's slash menu. The first test compares this list
 * with the menu itself, so a block type added to the schema fails until it
 * gets its save-and-reload test here.
 */
const SLASH_ITEMS: Record<string, SlashItem> = {
  "Heading 1": heading(1),
  "Heading 2": heading(2),
  "Heading 3": heading(3),
  "Heading 4": heading(4),
  "Heading 5": heading(5),
  "Heading 6": heading(6),
  "Toggle Heading 1": heading(1, true),
  "Toggle Heading 2": heading(2, true),
  "Toggle Heading 3": heading(3, true),
  Quote: { block: { type: "quote" }, fill: typeText("A quoted line") },
  "Toggle List": { block: { type: "toggleListItem" }, fill: typeText("A toggle item") },
  "Numbered List": { block: { type: "numberedListItem" }, fill: typeText("First numbered item") },
  "Bullet List": { block: { type: "bulletListItem" }, fill: typeText("A bullet item") },
  "Check List": {
    block: { type: "checkListItem", props: { checked: true } },
    fill: async (page) => {
      await page.keyboard.type("A task done");
      await editorBody(page).locator('[data-content-type="checkListItem"] input[type="checkbox"]').click();
      return "A task done";
    },
  },
  Paragraph: { block: { type: "paragraph" }, fill: typeText("Just a paragraph") },
  "Code Block": { block: { type: "codeBlock" }, fill: typeText("const answer = 42;") },
  Divider: {
    // A divider holds no text: the cursor moves to the paragraph below it.
    block: { type: "divider" },
    holdsText: false,
    fill: typeText("Below the divider"),
  },
  Table: {
    block: { type: "table" },
    fill: async (page) => {
      await page.keyboard.type("north");
      await page.keyboard.press("Tab");
      await page.keyboard.type("south");
      return "south";
    },
  },
  Image: embed("image", "/icon.svg"),
  Video: embed("video", "/media/clip.mp4"),
  Audio: embed("audio", "/media/song.mp3"),
  File: embed("file", "/media/report.pdf"),
  Emoji: {
    block: { type: "paragraph" },
    fill: async (page) => {
      const first = page.locator(".bn-grid-suggestion-menu-item").first();
      await first.waitFor();
      const emoji = (await first.innerText()).trim();
      expect(emoji).toMatch(/\p{Extended_Pictographic}/u);
      await first.click();
      // The picker puts a space after the emoji.
      await page.keyboard.type("after an emoji");
      return `${emoji} after an emoji`;
    },
  },
};

function matches(block: StoredBlock, expected: SlashItem["block"]): boolean {
  if (block.type !== expected.type) return false;
  if (expected.url !== undefined && !String(block.props?.url ?? "").endsWith(expected.url)) return false;
  return Object.entries(expected.props ?? {}).every(([key, value]) => block.props?.[key] === value);
}

// Whatever the editor can produce is saved: typed in a real browser, then
// checked after a reload and through the API an agent uses.
describe("every block the editor makes is saved", () => {
  let stack: BrowserStack;
  let page: Page;
  const person = { email: "ada@example.com", password: "ada-password-1" };
  const stored = (id: string) => storedNote(stack, person.email, id);

  beforeAll(async () => {
    stack = await startBrowserStack({ accounts: [person] });
    ({ page } = await stack.newPage());
    await stack.signIn(page, person);
  });
  afterAll(() => stack?.stop());

  /** Reloads and waits for the editor; nothing may be offered as "unsaved" after a clean save. */
  async function reload() {
    await page.reload();
    await editorBody(page).waitFor();
    expect(await page.locator(".banner-draft").count()).toBe(0);
  }

  it("text typed into a table and into a paragraph below it is saved, shown after a reload and stored", { timeout: 120_000 }, async () => {
    const id = await openNewNote(stack, page, person.email, { title: "Shopping" });
    await editorBody(page).click();
    await pickFromSlashMenu(page, "Table");
    await page.keyboard.type("Milk");
    await page.keyboard.press("Tab");
    await page.keyboard.type("2 litres");
    await page.keyboard.press("Tab");
    await page.keyboard.type("fresh");
    await clickBelowLastBlock(page);
    await page.keyboard.type("Below the table: ask about oat milk.");
    await waitForSaved(page);
    await screenshot(page, "editor-table");

    await reload();
    const cells = editorBody(page).locator('[data-content-type="table"] td, [data-content-type="table"] th');
    expect((await cells.allInnerTexts()).slice(0, 3)).toEqual(["Milk", "2 litres", "fresh"]);
    expect(await editorBody(page).locator('[data-content-type="paragraph"]').filter({ hasText: "oat milk" }).innerText()).toBe(
      "Below the table: ask about oat milk.",
    );
    const note = await stored(id);
    const table = note.content.find((block) => block.type === "table") as StoredBlock & { content: { columnWidths: unknown[]; rows: unknown[] } };
    expect(table).toBeDefined();
    // Unset widths arrive from the editor as undefined: stored as null, and the table still loads and saves.
    expect(table.content.columnWidths).toEqual([null, null, null]);
    expect(table.content.rows).toHaveLength(2);
    expect(note.contentText).toContain("Milk");
    expect(note.contentText).toContain("2 litres");
    expect(note.contentText).toContain("Below the table: ask about oat milk.");

    // The table as stored (widths null) is edited again after the reload.
    await cells.nth(3).click();
    await page.keyboard.type("Bread");
    await waitForSaved(page);
    await reload();
    expect(await cells.nth(3).innerText()).toBe("Bread");
    expect((await stored(id)).contentText).toContain("Bread");
  });

  it("ArrowDown leaves a table at the end of a note: what is typed next is a paragraph below it, not a cell", { timeout: 120_000 }, async () => {
    // From the last cell, and from a cell of the last row that is not the last.
    for (const [cell, typed] of [[3, "after the last cell"], [2, "after a cell of the last row"]] as const) {
      const id = await openNewNote(stack, page, person.email, { title: `Leaving ${cell}`, contentMarkdown: "| Item | Count |\n| --- | --- |\n| Pens | 4 |" });
      const cells = editorBody(page).locator('[data-content-type="table"] td, [data-content-type="table"] th');
      await cells.nth(cell).click();
      await page.keyboard.press("End");
      await page.keyboard.press("ArrowDown");
      await page.keyboard.type(typed);
      await waitForSaved(page);
      const note = await stored(id);
      expect(note.content.map((block) => block.type)).toEqual(["table", "paragraph"]);
      expect(note.contentText.split("\n").at(-1)).toBe(typed);
      expect(await cells.allInnerTexts()).toEqual(["Item", "Count", "Pens", "4"]);
    }
  });

  it("a Markdown note from the API with a table and a checklist: a box ticked in the browser stays ticked, for the agent too", { timeout: 120_000 }, async () => {
    const markdown = "| Item | Qty |\n| --- | --- |\n| Eggs | 12 |\n| Coffee | 1 kg |\n\n- [ ] buy eggs\n- [ ] grind coffee\n- [x] pay rent\n";
    const id = await openNewNote(stack, page, person.email, { title: "Errands", contentMarkdown: markdown });
    const item = (text: string) => editorBody(page).locator('[data-content-type="checkListItem"]').filter({ hasText: text });
    await item("grind coffee").waitFor();
    expect(await editorBody(page).locator('[data-content-type="table"] td, [data-content-type="table"] th').allInnerTexts()).toContain("1 kg");

    await item("grind coffee").locator('input[type="checkbox"]').click();
    await waitForSaved(page);
    await reload();
    expect(await item("grind coffee").locator('input[type="checkbox"]').isChecked()).toBe(true);
    expect(await item("buy eggs").locator('input[type="checkbox"]').isChecked()).toBe(false);
    expect(await item("pay rent").locator('input[type="checkbox"]').isChecked()).toBe(true);

    const note = await stored(id);
    const checks = allBlocks(note.content).filter((block) => block.type === "checkListItem");
    expect(checks.map((block) => block.props?.checked)).toEqual([false, true, true]);
    expect(note.content.some((block) => block.type === "table")).toBe(true);
    expect(note.contentText).toContain("Coffee");
    const asMarkdown = await stack.api(`/api/notes/${id}?format=markdown`, { token: stack.tokenFor(person.email) });
    expect(asMarkdown.status).toBe(200);
    expect(asMarkdown.text).toMatch(/\[x\] grind coffee/);
    expect(asMarkdown.text).toMatch(/\[ \] buy eggs/);
  });

  it("a pasted NUL or half an emoji, which a database cannot hold, does not stop the note from saving", { timeout: 90_000 }, async () => {
    const id = await openNewNote(stack, page, person.email, { title: "Pasted" });
    const sent: string[] = [];
    const record = (request: { method(): string; postData(): string | null }) => {
      if (request.method() === "POST") sent.push(request.postData() ?? "");
    };
    page.on("request", record);
    await page.locator("#note-title").fill("Budget\u0000 2027");
    await editorBody(page).click();
    await page.evaluate(() => {
      const data = new DataTransfer();
      data.setData("text/plain", "From a PDF:\u0000 totals \ud83d here");
      document.querySelector(".bn-editor")!.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
    });
    await waitForSaved(page);
    page.off("request", record);
    // The browser sent them as they are: the server made them storable.
    expect(sent.some((body) => body.includes("Budget\\u0000 2027"))).toBe(true);
    const note = await stored(id);
    expect(note.title).toBe("Budget 2027");
    expect(note.contentText).toBe("From a PDF: totals \ufffd here");
    await reload();
    expect(await editorBody(page).innerText()).toContain("totals");
  });

  it("the slash menu offers exactly the items tested below", { timeout: 60_000 }, async () => {
    await openNewNote(stack, page, person.email, { title: "Menu" });
    await editorBody(page).click();
    const titles = await openSlashMenu(page);
    await screenshot(page, "editor-slash-menu");
    await page.keyboard.press("Escape");
    expect([...titles].sort()).toEqual(Object.keys(SLASH_ITEMS).sort());
  });

  it("every slash menu item, one after another in one note: saved, there after a reload, and stored", { timeout: 240_000 }, async () => {
    const id = await openNewNote(stack, page, person.email, { title: "Every block" });
    const typed = new Map<string, string>();
    for (const [title, item] of Object.entries(SLASH_ITEMS)) {
      await clickBelowLastBlock(page);
      await pickFromSlashMenu(page, title);
      typed.set(title, await item.fill(page, stack));
    }
    await waitForSaved(page);
    await screenshot(page, "editor-every-block");

    await reload();
    await expect.poll(() => editorBody(page).innerText()).toContain(typed.get("File"));
    const shown = await editorBody(page).innerText();
    const note = await stored(id);
    const blocks = allBlocks(note.content);
    const problems: string[] = [];
    for (const [title, item] of Object.entries(SLASH_ITEMS)) {
      const text = typed.get(title)!;
      // The block the item made: the one holding its text, or (a divider, an embed) one of its kind.
      const made = blocks.filter((block) => (item.holdsText === false ? true : JSON.stringify(block.content ?? "").includes(text)));
      if (!made.some((block) => matches(block, item.block))) problems.push(`${title}: no stored ${JSON.stringify(item.block)}`);
      if ((await editorBody(page).locator(`[data-content-type="${item.block.type}"]`).count()) === 0) problems.push(`${title}: no ${item.block.type} shown`);
      if (!shown.includes(text)) problems.push(`${title}: “${text}” not shown after a reload`);
      if (!note.contentText.includes(text)) problems.push(`${title}: “${text}” not in the stored text`);
    }
    expect(problems, JSON.stringify(note.content)).toEqual([]);
  });
});
