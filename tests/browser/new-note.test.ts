import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { editorBody, noteIdFromUrl, pressShortcut, startBrowserStack, waitForSaved, type BrowserStack } from "@/tests/helpers/browser";

// "New note" leaves no empty Untitled notes behind: a new note nobody wrote in
// is deleted when it is left, however it is left; anything typed keeps it.
describe("new notes in the browser", () => {
  let stack: BrowserStack;
  let context: BrowserContext;
  let page: Page;
  const person = { email: "lin@example.com", password: "lin-password" };
  const token = () => stack.tokenFor(person.email);
  const status = async (id: string) => (await stack.api(`/api/notes/${id}`, { token: token() })).status;
  const titles = async () => ((await stack.api("/api/notes", { token: token() })).body.notes as { title: string }[]).map((note) => note.title);

  beforeAll(async () => {
    stack = await startBrowserStack({ accounts: [person] });
    ({ context, page } = await stack.newPage());
    await stack.signIn(page, person);
  });
  afterAll(() => stack?.stop());

  /** The editor's own way back to the list (not the header's link). */
  const backToNotes = () => page.locator(".editor-bar").getByRole("link", { name: "Notes" }).click();

  /** Clicks "New note" and waits for its editor; the address loses the "new" marker. */
  async function newNote(tab = page): Promise<string> {
    await tab.getByRole("button", { name: "New note" }).first().click();
    await tab.waitForURL(/\/notes\/[0-9a-f-]{36}$/);
    await editorBody(tab).waitFor();
    await expect.poll(() => tab.evaluate(() => document.activeElement?.id)).toBe("note-title");
    return noteIdFromUrl(tab.url());
  }

  /** The cookie a new note's page leaves as it unloads untouched (lib/notes/left-new-note.ts). */
  const leftCookie = async () => (await context.cookies()).find((cookie) => cookie.name === "notes-left-new")?.value;

  it("a new note left untouched with the Notes button is gone, from the list and for the agent", async () => {
    await page.goto("/notes");
    const id = await newNote();
    expect(await status(id)).toBe(200);
    await backToNotes();
    await page.waitForURL(/\/notes$/);
    expect(await status(id)).toBe(404);
    expect(await page.locator("[data-note-row]").count()).toBe(0);
    expect(await titles()).toEqual([]);
    // Nothing was written, so nothing waits in the trash either.
    expect((await stack.api("/api/trash", { token: token() })).body.total).toBe(0);
  });

  it("left through the header's links or the browser's Back button, it is gone too", async () => {
    await page.goto("/notes");
    const first = await newNote();
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Tags" }).click();
    await page.waitForURL(/\/tags$/);
    await expect.poll(() => status(first)).toBe(404);

    await page.goto("/notes");
    const second = await newNote();
    await page.goBack();
    await page.waitForURL(/\/notes$/);
    await expect.poll(() => status(second)).toBe(404);
    await expect.poll(() => page.locator("[data-note-row]").count()).toBe(0);
  });

  it("left through the address bar for the list, it is gone before the list shows", async () => {
    await page.goto("/notes");
    const id = await newNote();
    await page.goto("/notes");
    // Deleted by the list page itself, before it listed: no row, not even for a moment.
    expect(await status(id)).toBe(404);
    expect(await page.locator("[data-note-row]").count()).toBe(0);
    await expect.poll(leftCookie).toBeUndefined();
  });

  it("left through the address bar for any other page, it is gone too", async () => {
    await page.goto("/notes");
    const id = await newNote();
    await page.goto("/trash");
    await expect.poll(() => status(id)).toBe(404);
    await expect.poll(leftCookie).toBeUndefined();
    expect((await stack.api("/api/trash", { token: token() })).body.total).toBe(0);
  });

  it("left by closing its tab, it is gone when the browser next loads a page; a reload before that keeps it", async () => {
    await page.goto("/notes");
    const tab = await context.newPage();
    await tab.goto("/notes");
    const id = await newNote(tab);
    await tab.reload();
    await editorBody(tab).waitFor();
    await expect.poll(leftCookie).toBeUndefined();
    expect(await status(id)).toBe(200);

    await tab.close({ runBeforeUnload: true });
    await expect.poll(leftCookie).toBe(`${id}.1`);
    // Nothing runs until a page loads: the other tab, here.
    expect(await status(id)).toBe(200);
    await page.goto("/tags");
    await expect.poll(() => status(id)).toBe(404);
    await expect.poll(leftCookie).toBeUndefined();
  });

  it("N on an untouched new note replaces it with the next one: one empty note at most", async () => {
    await page.goto("/notes");
    const first = await newNote();
    await page.locator("#note-title").blur();
    await pressShortcut(page, "n");
    await page.waitForURL((url) => /\/notes\/[0-9a-f-]{36}$/.test(url.pathname) && !url.pathname.endsWith(first));
    const second = noteIdFromUrl(page.url());
    await expect.poll(() => status(first)).toBe(404);
    expect(await status(second)).toBe(200);
    await backToNotes();
    await page.waitForURL(/\/notes$/);
    await expect.poll(() => status(second)).toBe(404);
  });

  it("a reload keeps the new note (and still deletes it when it is left untouched)", async () => {
    await page.goto("/notes");
    const id = await newNote();
    await page.reload();
    await editorBody(page).waitFor();
    expect(await status(id)).toBe(200);
    await backToNotes();
    await page.waitForURL(/\/notes$/);
    expect(await status(id)).toBe(404);
  });

  it("typing at once after clicking keeps every key, and the note stays when it is left", async () => {
    await page.goto("/notes");
    const id = await newNote();
    await page.keyboard.type("Typed straight away");
    await page.keyboard.press("Enter");
    await page.keyboard.type("and the body too");
    await backToNotes();
    await page.waitForURL(/\/notes$/);
    const note = (await stack.api(`/api/notes/${id}`, { token: token() })).body.note;
    expect(note.title).toBe("Typed straight away");
    expect(note.contentText).toBe("and the body too");
    await expect.poll(() => page.locator("[data-note-row]").count()).toBe(1);
  });

  it("a tag alone is writing something: the note stays", async () => {
    await page.goto("/notes");
    const id = await newNote();
    await page.getByRole("button", { name: "Add tags" }).click();
    await page.keyboard.type("inbox");
    await page.getByRole("option", { name: "Create “inbox”" }).waitFor();
    await page.keyboard.press("Enter");
    await page.locator(".tag-picker .tag", { hasText: "inbox" }).waitFor();
    await page.keyboard.press("Escape");
    await waitForSaved(page);
    await backToNotes();
    await page.waitForURL(/\/notes$/);
    expect(await status(id)).toBe(200);
  });

  it("an empty Untitled note an agent made is never deleted by opening and leaving it", async () => {
    const created = await stack.api("/api/notes", { method: "POST", token: token(), json: { title: "Untitled", contentText: "" } });
    expect(created.status).toBe(201);
    const id: string = created.body.note.id;
    await page.goto(`/notes/${id}`);
    await editorBody(page).waitFor();
    await backToNotes();
    await page.waitForURL(/\/notes$/);
    await page.goto("/tags");
    await page.goto("/notes");
    expect(await status(id)).toBe(200);
  });

  it("an agent writing to the untouched new note keeps it: the delete is only of the version the person saw", async () => {
    await page.goto("/notes");
    const id = await newNote();
    const updated = await stack.api(`/api/notes/${id}`, { method: "PATCH", token: token(), json: { contentText: "from the agent" } });
    expect(updated.status).toBe(200);
    await backToNotes();
    await page.waitForURL(/\/notes$/);
    expect(await status(id)).toBe(200);
  });

  it("a note with something in it is never named on the way out", async () => {
    await page.goto("/notes");
    const id = await newNote();
    await page.keyboard.type("Kept");
    await waitForSaved(page);
    await page.goto("/tags");
    expect(await leftCookie()).toBeUndefined();
    expect((await stack.api(`/api/notes/${id}`, { token: token() })).body.note.title).toBe("Kept");
  });
});
