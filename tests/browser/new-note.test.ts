import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { editorBody, noteIdFromUrl, pressShortcut, startBrowserStack, waitForSaved, type BrowserStack } from "@/tests/helpers/browser";

// A new note exists from its first save: "New note" opens an editor for an
// id made in the browser, and nothing is stored until something is typed, so
// a note left untouched, however it is left, leaves nothing behind.
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

  /** Clicks "New note" and waits for its editor; the address says the note is new until its first save. */
  async function newNote(tab = page): Promise<string> {
    await tab.getByRole("button", { name: "New note" }).first().click();
    await tab.waitForURL(/\/notes\/[0-9a-f-]{36}\?new=1$/);
    await editorBody(tab).waitFor();
    await expect.poll(() => tab.evaluate(() => document.activeElement?.id)).toBe("note-title");
    return noteIdFromUrl(tab.url());
  }

  it("an untouched new note is never stored: left by the Notes button, a link, Back, the address bar or closing the tab, nothing remains", async () => {
    await page.goto("/notes");
    const ids = [await newNote()];
    expect(await status(ids[0]!)).toBe(404);
    expect(await page.getByTestId("save-status").textContent()).toBe("New note");
    await backToNotes();
    await page.waitForURL(/\/notes$/);

    ids.push(await newNote());
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Tags" }).click();
    await page.waitForURL(/\/tags$/);

    await page.goto("/notes");
    ids.push(await newNote());
    await page.goBack();
    await page.waitForURL(/\/notes$/);

    ids.push(await newNote());
    await page.goto("/trash");

    const tab = await context.newPage();
    await tab.goto("/notes");
    ids.push(await newNote(tab));
    await tab.close({ runBeforeUnload: true });

    for (const id of ids) expect(await status(id)).toBe(404);
    expect(await titles()).toEqual([]);
    expect((await stack.api("/api/trash", { token: token() })).body.total).toBe(0);
    await page.goto("/notes");
    expect(await page.locator("[data-note-row]").count()).toBe(0);
  });

  it("N on an untouched new note opens the next one; a reload opens the same new note again", async () => {
    await page.goto("/notes");
    const first = await newNote();
    await page.locator("#note-title").blur();
    await pressShortcut(page, "n");
    await page.waitForURL((url) => /\/notes\/[0-9a-f-]{36}$/.test(url.pathname) && !url.pathname.endsWith(first));
    const second = noteIdFromUrl(page.url());
    await page.reload();
    await editorBody(page).waitFor();
    expect(noteIdFromUrl(page.url())).toBe(second);
    expect(await status(first)).toBe(404);
    expect(await status(second)).toBe(404);
  });

  it("typing at once keeps every key; the first save creates the note with its address's id, and the address loses the marker", async () => {
    await page.goto("/notes");
    const id = await newNote();
    await page.keyboard.type("Typed straight away");
    await page.keyboard.press("Enter");
    await page.keyboard.type("and the body too");
    await waitForSaved(page);
    await page.waitForURL(new RegExp(`/notes/${id}$`));
    const note = (await stack.api(`/api/notes/${id}`, { token: token() })).body.note;
    expect(note).toMatchObject({ id, title: "Typed straight away", contentText: "and the body too" });
    await backToNotes();
    await page.waitForURL(/\/notes$/);
    await expect.poll(() => page.locator("[data-note-row]").count()).toBe(1);
    // Its history starts with what was typed, by the person: there never was an empty version.
    const history = await stack.api(`/api/notes/${id}/revisions`, { token: token() });
    expect(history.body.revisions.at(-1)).toMatchObject({ version: 1, title: "Typed straight away" });
  });

  it("a tag alone is writing something: the note is stored", async () => {
    await page.goto("/notes");
    const id = await newNote();
    await page.getByRole("button", { name: "Add tags" }).click();
    await page.keyboard.type("inbox");
    await page.getByRole("option", { name: "Create “inbox”" }).waitFor();
    await page.keyboard.press("Enter");
    await page.locator(".tag-picker .tag", { hasText: "inbox" }).waitFor();
    await page.keyboard.press("Escape");
    await waitForSaved(page);
    expect(await status(id)).toBe(200);
  });

  it("a new note's unsaved text survives closing the tab, and “Save these changes” creates the note", async () => {
    const tab = await context.newPage();
    await tab.goto("/notes");
    const id = await newNote(tab);
    // No save reaches the server: the connection is gone, then the tab is gone
    // at once, with no last word (a tab's ordinary close ends the offline
    // emulation as it goes, and its last save may then reach the server).
    await context.setOffline(true);
    await tab.keyboard.type("Not lost");
    await expect.poll(() => tab.evaluate((note) => localStorage.getItem(`notes:draft:${note}`), id)).toContain("Not lost");
    await expect.poll(() => tab.getByTestId("save-status").textContent()).toBe("Offline, retrying");
    const crashed = new Promise((resolve) => tab.once("crash", resolve));
    void (await context.newCDPSession(tab)).send("Page.crash").catch(() => {});
    await crashed;
    await tab.close();
    await context.setOffline(false);

    // Its address, from the browser's history: the same new note, what was typed offered back.
    await page.goto(`/notes/${id}?new=1`);
    await page.locator(".banner-draft").waitFor();
    expect(await page.locator("#note-title").inputValue()).toBe("Not lost");
    expect(await status(id)).toBe(404);
    await page.getByRole("button", { name: "Save these changes" }).click();
    await waitForSaved(page);
    expect((await stack.api(`/api/notes/${id}`, { token: token() })).body.note.title).toBe("Not lost");
  });

  it("an empty Untitled note an agent made is kept when a person opens and leaves it", async () => {
    const created = await stack.api("/api/notes", { method: "POST", token: token(), json: { title: "Untitled", contentText: "" } });
    expect(created.status).toBe(201);
    const id: string = created.body.note.id;
    await page.goto(`/notes/${id}`);
    await editorBody(page).waitFor();
    await backToNotes();
    await page.waitForURL(/\/notes$/);
    expect(await status(id)).toBe(200);
  });

  it("an address of a note that does not exist, without the new marker, is not found", async () => {
    await page.goto("/notes/0b6b1f7e-4a53-4c6e-9d55-7a3f1d2c9e10");
    await page.getByRole("heading", { name: "This note does not exist", level: 1 }).waitFor();
    expect(await editorBody(page).count()).toBe(0);
  });
});
