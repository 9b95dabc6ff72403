import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { editorBody, screenshot, startBrowserStack, waitForSaved, type BrowserStack } from "@/tests/helpers/browser";
import { clickBelowLastBlock, openNewNote, pickFromSlashMenu, storedNote } from "@/tests/helpers/editor";

// The shapes a person makes in the real editor (empty paragraphs, hard line
// breaks, a resized table column, nesting, styles, emoji, a trailing empty
// block) survive an agent reading the note as Markdown and writing it back:
// the note's JSON afterwards is the JSON the browser saved, ids included.
describe("a note made in the browser, read and written back as Markdown by an agent", () => {
  let stack: BrowserStack;
  let page: Page;
  const person = { email: "grace@example.com", password: "grace-password-1" };

  beforeAll(async () => {
    stack = await startBrowserStack({ accounts: [person] });
    ({ page } = await stack.newPage());
    await stack.signIn(page, person);
  });
  afterAll(() => stack?.stop());

  /** Drags the right border of the table's first column `by` pixels, as a person resizes it. */
  async function resizeFirstColumn(by: number) {
    const cell = editorBody(page).locator('[data-content-type="table"] td, [data-content-type="table"] th').first();
    const box = (await cell.boundingBox())!;
    const x = box.x + box.width - 1;
    const y = box.y + box.height / 2;
    await page.mouse.move(x - 6, y);
    await page.mouse.move(x, y, { steps: 4 });
    await page.locator(".column-resize-handle").first().waitFor();
    await page.mouse.down();
    await page.mouse.move(x + by, y, { steps: 8 });
    await page.mouse.up();
  }

  it("comes back exactly as the browser saved it", { timeout: 180_000 }, async () => {
    const id = await openNewNote(stack, page, person.email, { title: "Made by hand" });
    await editorBody(page).click();
    const keys = page.keyboard;
    await keys.type("# Plan");
    await keys.press("Enter");
    await keys.type("Line one");
    await keys.press("Shift+Enter");
    await keys.type("line two 🎉 with ");
    await keys.press("Control+B");
    await keys.type("bold");
    await keys.press("Control+B");
    await keys.type(" and ");
    await keys.press("Control+I");
    await keys.type("italic");
    await keys.press("Control+I");
    await keys.press("Enter");
    await keys.press("Enter");
    await keys.type("after an empty paragraph");
    await keys.press("Enter");
    await keys.type("- first");
    await keys.press("Enter");
    await keys.press("Tab");
    await keys.type("nested");
    await keys.press("Enter");
    await keys.press("Shift+Tab");
    await keys.press("Enter");
    await keys.type("[] to do");
    await keys.press("Enter");
    await keys.press("Enter");
    await pickFromSlashMenu(page, "Table");
    await keys.type("Item");
    await keys.press("Tab");
    await keys.type("Cost");
    await keys.press("Tab");
    await keys.press("Tab");
    await keys.type("12");
    await resizeFirstColumn(80);
    await clickBelowLastBlock(page);
    await keys.type("The end");
    await keys.press("Enter");
    await waitForSaved(page);
    await screenshot(page, "markdown-fidelity-made-by-hand");

    const saved = await storedNote(stack, person.email, id);
    const types = saved.content.map((block) => block.type);
    // The shapes the test means to make were made.
    expect(types).toEqual(expect.arrayContaining(["heading", "paragraph", "bulletListItem", "checkListItem", "table"]));
    expect(saved.content.at(-1)).toMatchObject({ type: "paragraph", content: [] });
    expect(saved.content.some((block) => block.type === "paragraph" && Array.isArray(block.content) && block.content.length === 0 && block !== saved.content.at(-1))).toBe(true);
    const table = saved.content.find((block) => block.type === "table") as { content: { columnWidths: (number | null)[] } };
    expect(typeof table.content.columnWidths[0]).toBe("number");
    expect(JSON.stringify(saved.content)).toContain("Line one\\nline two");

    const token = stack.tokenFor(person.email);
    const read = await stack.api(`/api/notes/${id}?format=markdown`, { token });
    expect(read.status).toBe(200);
    expect(read.text).toContain("| Item");
    expect(read.text).toContain("Line one<br>line two");
    const body = read.text.slice("# Made by hand\n\n".length);
    const written = await stack.api(`/api/notes/${id}`, { method: "PATCH", token, json: { contentMarkdown: body } });
    expect(written.status, written.text).toBe(200);
    expect(written.body.note.content).toEqual(saved.content);
    expect(written.body.note.contentText).toBe(saved.contentText);

    // And the browser, which learns of the agent's write, still shows the note whole.
    await page.reload();
    await editorBody(page).waitFor();
    await expect.poll(() => editorBody(page).innerText()).toContain("after an empty paragraph");
  });
});

// A body an agent wrote in blocks the editor does not know is never saved
// over from the browser without the person choosing to: it opens read-only,
// says why, and only "Edit the body as shown" lets an edit replace it.
describe("a note whose body the editor cannot show as it is stored", () => {
  let stack: BrowserStack;
  let page: Page;
  const person = { email: "ida@example.com", password: "ida-password-12" };
  const token = () => stack.tokenFor(person.email);
  const text = (value: string) => [{ type: "text", text: value, styles: {} }];
  const body = [
    { id: "p1", type: "paragraph", props: {}, content: text("Before the callout"), children: [] },
    { id: "c1", type: "callout", props: { tone: "warning" }, content: text("Keep me as a callout"), children: [] },
  ];

  beforeAll(async () => {
    stack = await startBrowserStack({ accounts: [person] });
    ({ page } = await stack.newPage());
    await stack.signIn(page, person);
  });
  afterAll(() => stack?.stop());

  it("opens read-only with the reason; the title still saves; the body changes only once the person edits it as shown", async () => {
    const created = await stack.api("/api/notes", { method: "POST", token: token(), json: { title: "From an agent", content: body } });
    expect(created.status).toBe(201);
    const id: string = created.body.note.id;
    await page.goto(`/notes/${id}`);
    const banner = page.getByTestId("unshown-body");
    await banner.waitFor();
    expect(await banner.textContent()).toContain('unknown block type "callout"');
    const editor = page.locator(".bn-editor");
    await editor.getByText("Keep me as a callout").waitFor();
    expect(await editor.getAttribute("contenteditable")).toBe("false");
    // Written without contentText: there is no other text to offer, so no "text changed" banner (its "Use the text" would empty the body).
    expect(await page.getByText("This note’s text was changed without its formatted body").count()).toBe(0);
    await screenshot(page, "unshown-body");

    // Typing into the body changes nothing; the title saves alone.
    await editor.getByText("Before the callout").click();
    await page.keyboard.type("typed");
    await page.locator("#note-title").fill("From an agent, renamed");
    await waitForSaved(page);
    let stored = (await stack.api(`/api/notes/${id}`, { token: token() })).body.note;
    expect(stored.title).toBe("From an agent, renamed");
    expect(stored.content).toEqual(body);

    await banner.getByRole("button", { name: "Edit the body as shown" }).click();
    await expect.poll(() => editor.getAttribute("contenteditable")).toBe("true");
    await editor.getByText("Before the callout").click();
    await page.keyboard.press("End");
    await page.keyboard.type(", edited");
    await waitForSaved(page);
    stored = (await stack.api(`/api/notes/${id}`, { token: token() })).body.note;
    expect(stored.content.map((block: { type: string }) => block.type)).toEqual(["paragraph", "paragraph"]);
    expect(stored.contentText).toContain("Before the callout, edited");
    expect(stored.contentText).toContain("Keep me as a callout");
    // The version before is in the history.
    const revisions = (await stack.api(`/api/notes/${id}/revisions`, { token: token() })).body.revisions as { id: string }[];
    const kept = await Promise.all(revisions.map(async (revision) => (await stack.api(`/api/notes/${id}/revisions/${revision.id}`, { token: token() })).body));
    expect(kept.some((revision) => JSON.stringify(revision).includes('"callout"'))).toBe(true);
  });
});

// An image among words, and one inside a link, written as Markdown by an agent: the editor shows
// both as images in their lines, and the person's edit next to them keeps them as they were.
describe("images among a line's text, written by an agent", () => {
  let stack: BrowserStack;
  let page: Page;
  const person = { email: "lin@example.com", password: "lin-password-12" };
  const token = () => stack.tokenFor(person.email);

  beforeAll(async () => {
    stack = await startBrowserStack({ accounts: [person] });
    ({ page } = await stack.newPage());
    await stack.signIn(page, person);
  });
  afterAll(() => stack?.stop());

  it("show as images in the editor and survive the person's edit", async () => {
    const markdown = 'Look ![a moon](/moon.png "The moon") here and [![a sun](/sun.png)](https://example.com/sun) there';
    const created = await stack.api("/api/notes", { method: "POST", token: token(), json: { title: "Sky", contentMarkdown: markdown } });
    expect(created.status).toBe(201);
    const id: string = created.body.note.id;
    const before = (await stack.api(`/api/notes/${id}`, { token: token() })).body.note;
    await page.goto(`/notes/${id}`);
    const editor = page.locator(".bn-editor");
    await editor.locator('img.inline-image[alt="a moon"]').waitFor();
    expect(await editor.locator('img.inline-image[alt="a moon"]').getAttribute("title")).toBe("The moon");
    expect(await editor.locator('a[href="https://example.com/sun"] img.inline-image[alt="a sun"]').count()).toBe(1);

    await editor.getByText("there").click();
    await page.keyboard.press("End");
    await page.keyboard.type(", edited");
    await waitForSaved(page);
    const stored = (await stack.api(`/api/notes/${id}`, { token: token() })).body.note;
    const images = (content: { content: { type: string }[] }[]) => content[0]!.content.filter((item) => item.type === "inlineImage");
    expect(images(stored.content)).toEqual(images(before.content));
    expect(stored.contentText).toContain("there, edited");
    const read = await stack.api(`/api/notes/${id}?format=markdown`, { token: token() });
    expect(read.text).toContain('Look ![a moon](/moon.png "The moon") here and [![a sun](/sun.png)](https://example.com/sun) there, edited');
  });
});
