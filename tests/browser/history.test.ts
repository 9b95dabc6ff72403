import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contentToText } from "@/lib/editor/content-text";
import { createNote } from "@/lib/notes/mutations";
import { editorBody, screenshot, startBrowserStack, waitForSaved, type BrowserStack } from "@/tests/helpers/browser";

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
    await expect.poll(() => versions.count()).toBe(2);
    expect(await versions.nth(0).innerText()).toContain("Agent · API");
    expect(await versions.nth(1).innerText()).toContain("You");
    await versions.nth(1).click();
    const changes = history.locator(".change-list");
    await changes.waitFor();
    expect(await changes.locator(".change.removed").allInnerTexts()).toEqual(expect.arrayContaining([expect.stringContaining("Trip plan. Pack the maps and the blue tent.")]));
    expect(await changes.locator(".change.added").allInnerTexts()).toEqual(expect.arrayContaining([expect.stringContaining("Agent summary: bring nothing.")]));
    await screenshot(page, "history-phone");

    await history.getByRole("button", { name: "Restore this version" }).click();
    await history.waitFor({ state: "hidden" });
    await expect.poll(() => editorBody(page).innerText()).toContain("Pack the maps and the blue tent.");
    expect(await page.locator("#note-title").inputValue()).toBe("Trip");

    await page.reload();
    await expect.poll(() => editorBody(page).innerText()).toContain("Pack the maps and the blue tent.");
    expect(await editorBody(page).innerText()).not.toContain("Agent summary");
    const restored = await api(`/api/notes/${noteId}`);
    expect(restored.body.note).toMatchObject({ title: "Trip", content: mine });
    const revisions = (await api(`/api/notes/${noteId}/revisions`)).body.revisions;
    expect(revisions.map((revision: { author: { kind: string } }) => revision.author.kind)).toEqual(["browser", "api", "browser"]);
  });
});
