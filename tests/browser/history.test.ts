import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contentToText } from "@/lib/body/content-text";
import { createNote, updateNote } from "@/lib/notes/mutations";
import { editorBody, screenshot, startBrowserStack, waitForSaved, type BrowserStack } from "@/tests/helpers/browser";
import { solidPng } from "@/tests/helpers/images";

const paragraph = (text: string) => ({ type: "paragraph", content: [{ type: "text", text, styles: {} }] });

// An agent overwrites what a person wrote; the person finds the agent's
// change in the note's history, marked as an agent's, and restores their own.
describe("history: undoing an agent's overwrite in the browser", () => {
  let stack: BrowserStack;
  let page: Page;
  let noteId = "";
  const person = { email: "grace@example.com", password: "grace-password" };
  const api = (path: string, request: Parameters<BrowserStack["api"]>[1] = {}) => stack.api(path, { token: stack.tokenFor(person.email), ...request });

  beforeAll(async () => {
    stack = await startBrowserStack({
      accounts: [person],
      seed: async (db, [account]) => {
        const content = [paragraph("Trip plan.")];
        const { note } = await createNote(db, { userId: account!.id, author: { kind: "browser", email: person.email }, input: { title: "Trip", content, contentText: contentToText(content) } });
        noteId = note.id;
      },
    });
    ({ page } = await stack.newPage({ viewport: { width: 390, height: 844 } }));
    await stack.signIn(page, person);
  });
  afterAll(() => stack?.stop());

  it("the person sees the agent's change marked in the list and the history, restores their version, and keeps it after a reload", async () => {
    await page.goto(`/notes/${noteId}`);
    const last = editorBody(page).locator('[data-content-type="paragraph"]').last();
    await last.click();
    await page.keyboard.press("End");
    await page.keyboard.type(" Pack the maps and the blue tent.");
    await waitForSaved(page);
    const saved = await api(`/api/notes/${noteId}`);
    expect(saved.body.note.contentText).toBe("Trip plan. Pack the maps and the blue tent.");
    const mine = saved.body.note.content;

    // The agent replaces the whole note through the REST API.
    const overwrite = await api(`/api/notes/${noteId}`, { method: "PATCH", json: { title: "Trip (summarised)", contentMarkdown: "Agent summary: bring nothing." } });
    expect(overwrite.status).toBe(200);

    await page.goto("/notes");
    const row = page.locator("[data-note-row]").filter({ hasText: "Trip (summarised)" });
    await row.locator(".author-badge.agent", { hasText: "Agent" }).waitFor();
    await row.click();
    await expect.poll(() => editorBody(page).innerText()).toContain("Agent summary: bring nothing.");

    await page.getByRole("button", { name: "History of this note" }).click();
    const history = page.getByRole("dialog", { name: "History" });
    const versions = history.getByRole("list", { name: "Versions, newest first" }).getByRole("button");
    // The note as made, the person's typing (a visit of its own), the agent's overwrite.
    await expect.poll(() => versions.count()).toBe(3);
    expect(await versions.nth(0).innerText()).toContain("Agent · API");
    expect(await versions.nth(1).innerText()).toContain("You");
    await versions.nth(1).click();
    const changes = history.locator(".change-list");
    await changes.waitFor();
    expect(await changes.locator(".change.removed").allInnerTexts()).toEqual(expect.arrayContaining([expect.stringContaining("Trip plan. Pack the maps and the blue tent.")]));
    expect(await changes.locator(".change.added").allInnerTexts()).toEqual(expect.arrayContaining([expect.stringContaining("Agent summary: bring nothing.")]));
    await screenshot(page, "history-phone");

    await history.getByRole("button", { name: "Restore this version" }).click();
    await history.getByRole("status").filter({ hasText: "Restored your version from" }).waitFor();
    await history.getByRole("button", { name: "Close history" }).click();
    await history.waitFor({ state: "hidden" });
    await expect.poll(() => editorBody(page).innerText()).toContain("Pack the maps and the blue tent.");
    expect(await page.locator("#note-title").inputValue()).toBe("Trip");

    await page.reload();
    await expect.poll(() => editorBody(page).innerText()).toContain("Pack the maps and the blue tent.");
    expect(await editorBody(page).innerText()).not.toContain("Agent summary");
    const restored = await api(`/api/notes/${noteId}`);
    expect(restored.body.note).toMatchObject({ title: "Trip", content: mine });
    const revisions = (await api(`/api/notes/${noteId}/revisions`)).body.revisions;
    expect(revisions.map((revision: { author: { kind: string } }) => revision.author.kind)).toEqual(["browser", "api", "browser", "browser"]);
  });
});

/** Pastes an image into the editor as a screenshot tool puts one on the clipboard. */
async function pastePng(page: Page, png: Buffer, name: string): Promise<void> {
  await page.evaluate(
    ({ base64, name }) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes], name, { type: "image/png" }));
      document.querySelector(".bn-editor")!.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
    },
    { base64: png.toString("base64"), name },
  );
}

type ListedRevision = { version: number; author: { kind: string }; restoredFrom?: number };

// A person types into a note an agent wrote twice, restores the oldest
// version, then undoes the restore: every version stays, each labelled with
// who wrote it and what it changed.
describe("history: versions a person can read, a restore and its undo", () => {
  let stack: BrowserStack;
  const person = { email: "ines@example.com", password: "ines-password" };
  const notes = { plan: "", photos: "" };
  const api = (path: string) => stack.api(path, { token: stack.tokenFor(person.email) });
  const agent = (email: string) => ({ kind: "api" as const, email, agent: "planner" });

  beforeAll(async () => {
    stack = await startBrowserStack({
      accounts: [person],
      seed: async (db, [account]) => {
        const first = [paragraph("Pack the tent.")];
        const { note } = await createNote(db, { userId: account!.id, author: agent(person.email), input: { title: "Camping", content: first, contentText: contentToText(first) } });
        const second = [...first, paragraph("Book the site.")];
        await updateNote(db, { id: note.id, userId: account!.id, author: agent(person.email), input: { content: second, contentText: contentToText(second) } });
        notes.plan = note.id;
        const photos = [paragraph("Photos of the site.")];
        notes.photos = (await createNote(db, { userId: account!.id, author: agent(person.email), input: { title: "Photos", content: photos, contentText: contentToText(photos) } })).note.id;
      },
    });
  });
  afterAll(() => stack?.stop());

  const openHistory = async (page: Page) => {
    await page.getByRole("button", { name: "History of this note" }).click();
    const history = page.getByRole("dialog", { name: "History" });
    const versions = history.getByRole("list", { name: "Versions, newest first" }).getByRole("button");
    return { history, versions };
  };

  it("the typed word comes back after restoring the oldest version and undoing it, and the API lists every version with its author", async () => {
    const { page } = await stack.newPage();
    await stack.signIn(page, person);
    await page.goto(`/notes/${notes.plan}`);
    await editorBody(page).locator('[data-content-type="paragraph"]').nth(1).click();
    await page.keyboard.press("End");
    await page.keyboard.type(" Umbrella");
    await waitForSaved(page);

    // The list takes a moment to come: the panel says it is loading meanwhile.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(`**/notes/${notes.plan}`, async (route) => {
      if (route.request().method() === "POST" && route.request().headers()["next-action"]) await held;
      await route.continue();
    });
    const { history, versions } = await openHistory(page);
    await history.getByRole("status").filter({ hasText: "Loading versions…" }).waitFor();
    expect(await versions.count()).toBe(0);
    await screenshot(page, "history-loading");
    release();
    await expect.poll(() => versions.count()).toBe(3);
    await page.unroute(`**/notes/${notes.plan}`);
    const labels = await versions.allInnerTexts();
    expect(labels[0]).toMatch(/^You\n.*current\n1 line added, 1 removed\nCamping$/);
    expect(labels[1]).toMatch(/^Agent “planner” · API\n.*\n1 line added\nCamping$/);
    expect(labels[2]).toMatch(/^Agent “planner” · API\n.*\nCreated · 1 line added\nCamping$/);

    await versions.nth(2).click();
    const changes = history.locator(".change-list");
    await changes.waitFor();
    expect(await changes.locator(".change.added").allInnerTexts()).toEqual([expect.stringContaining("Book the site. Umbrella")]);
    await history.getByRole("button", { name: "Restore this version" }).click();
    const notice = history.locator(".history-notice");
    await notice.getByText(/^Restored the agent's version from /).waitFor();
    await expect.poll(() => editorBody(page).innerText()).not.toContain("Umbrella");
    await expect.poll(() => versions.count()).toBe(4);
    expect(await versions.nth(0).innerText()).toMatch(/Restored the agent's version from \d/);
    await screenshot(page, "history-restored");

    await notice.getByRole("button", { name: "Undo" }).click();
    await notice.getByText("Restore undone: the note is as it was before it.").waitFor();
    await expect.poll(() => editorBody(page).innerText()).toContain("Book the site. Umbrella");
    await expect.poll(() => versions.count()).toBe(5);
    expect(await versions.nth(0).innerText()).toMatch(/Restored your version from \d/);
    await screenshot(page, "history-undone");

    const { note } = (await api(`/api/notes/${notes.plan}`)).body;
    expect(note.contentText).toBe("Pack the tent.\nBook the site. Umbrella");
    const listed: ListedRevision[] = (await api(`/api/notes/${notes.plan}/revisions`)).body.revisions;
    expect(listed.map((revision) => [revision.version, revision.author.kind, revision.restoredFrom])).toEqual([
      [5, "browser", 3],
      [4, "browser", 1],
      [3, "browser", undefined],
      [2, "api", undefined],
      [1, "api", undefined],
    ]);
  });

  it("on a phone: an image added since a version is a difference, each visit is a version, and formatting alone is named and can be restored", async () => {
    const { page } = await stack.newPage({ viewport: { width: 390, height: 844 } });
    await stack.signIn(page, person);
    await page.goto(`/notes/${notes.photos}`);
    await editorBody(page).locator('[data-content-type="paragraph"]').first().click();
    await page.keyboard.press("End");
    await pastePng(page, solidPng(120, 80, [30, 120, 200]), "lake.png");
    await editorBody(page).locator('[data-content-type="image"]').waitFor();
    await waitForSaved(page);

    let { history, versions } = await openHistory(page);
    await expect.poll(() => versions.count()).toBe(2);
    expect(await versions.nth(0).innerText()).toContain("Image added");
    await versions.nth(1).click();
    const changes = history.locator(".change-list");
    await changes.waitFor();
    expect(await history.locator(".history-legend").innerText()).not.toContain("same as the note now");
    expect(await changes.locator(".change.added").allTextContents()).toEqual(["+ Only in the note now: [image: lake.png]"]);
    await screenshot(page, "history-image-phone");
    await history.getByRole("button", { name: "Close history" }).click();

    // Coming back to the note is a new visit: its first save is a version of its own.
    await page.reload();
    await page.locator("html[data-shortcuts=ready]").waitFor({ state: "attached" });
    await editorBody(page).locator('[data-content-type="paragraph"]').first().click();
    await page.keyboard.press("End");
    await page.keyboard.press("Shift+Home");
    await expect.poll(() => page.evaluate(() => window.getSelection()?.toString())).toBe("Photos of the site.");
    // The formatting toolbar BlockNote shows over a selection.
    await page.locator('.bn-formatting-toolbar [data-test="bold"]').click();
    await editorBody(page).locator("strong").waitFor();
    await expect.poll(async () => JSON.stringify((await api(`/api/notes/${notes.photos}`)).body.note.content)).toContain('"bold":true');
    await waitForSaved(page);
    ({ history, versions } = await openHistory(page));
    await expect.poll(() => versions.count()).toBe(3);
    expect(await versions.nth(0).innerText()).toContain("Formatting changed");
    expect(await versions.nth(1).innerText()).toContain("Image added");
    await versions.nth(1).click();
    await history.getByText("Only the formatting differs from the note now").waitFor();
    expect(await history.locator(".history-legend").innerText()).toBe("The text of this version is the same as the note now.");
    const restore = history.getByRole("button", { name: "Restore this version" });
    expect(await restore.isEnabled()).toBe(true);
    await screenshot(page, "history-formatting-phone");
    await restore.click();
    await history.locator(".history-notice").getByText(/^Restored your version from /).waitFor();
    await history.locator(".history-notice").getByRole("button", { name: "Undo" }).waitFor();
    await expect.poll(() => editorBody(page).locator("strong").count()).toBe(0);
    await screenshot(page, "history-restored-phone");
  });
});
