import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contentToText } from "@/lib/body/content-text";
import { createNote } from "@/lib/notes/mutations";
import { editorBody, screenshot, startBrowserStack, waitForSaved, type BrowserStack } from "@/tests/helpers/browser";

const paragraph = (text: string) => ({ type: "paragraph", content: [{ type: "text", text, styles: {} }] });

// A person edits a note while their agent changes it through the API: the
// browser must never overwrite the agent's write without the person deciding.
describe("editing while an agent writes the same note", () => {
  let stack: BrowserStack;
  let page: Page;
  let noteId = "";
  const person = { email: "linus@example.com", password: "linus-password" };
  const api = (path: string, request: Parameters<BrowserStack["api"]>[1] = {}) => stack.api(path, { token: stack.tokenFor(person.email), ...request });

  beforeAll(async () => {
    stack = await startBrowserStack({
      accounts: [person],
      seed: async (db, [account]) => {
        const content = [paragraph("Meeting notes, first draft.")];
        const { note } = await createNote(db, { userId: account!.id, input: { title: "Weekly sync", content, contentText: contentToText(content) } });
        noteId = note.id;
      },
    });
    ({ page } = await stack.newPage());
    await stack.signIn(page, person);
  });
  afterAll(() => stack?.stop());

  async function typeAtEnd(text: string) {
    const last = editorBody(page).locator('[data-content-type="paragraph"]').last();
    await last.click();
    await page.keyboard.press("End");
    await page.keyboard.type(text);
  }

  /**
   * The open page asks every few seconds whether the note changed and merges
   * what it can; these tests are about what a save finds, so the page's
   * checks are held back (as if the agent wrote just before the save).
   */
  async function withoutLiveChecks(run: () => Promise<void>) {
    const pattern = `**/api/notes/${noteId}`;
    await page.route(pattern, (route) => (route.request().method() === "GET" ? route.abort() : route.continue()));
    try {
      await run();
    } finally {
      await page.unroute(pattern);
    }
  }

  /** The agent's write: If-Match with the version it read, as a careful client does. */
  async function agentRewrites(text: string) {
    const read = await api(`/api/notes/${noteId}`);
    const content = [paragraph(text)];
    const res = await api(`/api/notes/${noteId}`, { method: "PATCH", json: { content, contentText: text }, headers: { "if-match": read.headers.get("etag")! } });
    expect(res.status).toBe(200);
  }

  // The agent rewrites the whole body with blocks of its own (no ids): nothing to merge block by block.
  it("the next save does not overwrite the agent's change and says so; “Reload” shows the agent's text", async () => {
    await page.goto(`/notes/${noteId}`);
    await editorBody(page).waitFor();
    await typeAtEnd(" Browser line one.");
    await waitForSaved(page);

    await withoutLiveChecks(async () => {
      await agentRewrites("Agent summary: ship on Friday.");

      await typeAtEnd(" Browser line two.");
      await expect.poll(() => page.getByTestId("save-status").textContent(), { timeout: 15_000 }).toBe("Not saved: changed elsewhere");
      const banner = page.getByRole("alert").filter({ hasText: "changed elsewhere while you were editing" });
      await banner.waitFor();
      expect(await banner.innerText()).toContain("Agent summary: ship on Friday.");
      await screenshot(page, "editor-conflict");
    });

    // Nothing was overwritten.
    const afterConflict = await api(`/api/notes/${noteId}`);
    expect(afterConflict.body.note.contentText).toBe("Agent summary: ship on Friday.");

    await page.getByRole("button", { name: "Reload their version" }).click();
    await expect.poll(() => editorBody(page).innerText()).toContain("Agent summary: ship on Friday.");
    expect(await editorBody(page).innerText()).not.toContain("Browser line");
    await waitForSaved(page);

    // Editing goes on from the agent's version, without a conflict.
    await typeAtEnd(" Agreed.");
    await waitForSaved(page);
    expect((await api(`/api/notes/${noteId}`)).body.note.contentText).toBe("Agent summary: ship on Friday. Agreed.");
  });

  it("“Keep mine” saves the browser's text over the agent's, as an explicit choice", async () => {
    await withoutLiveChecks(async () => {
      await agentRewrites("Agent: moved to Monday.");
      await typeAtEnd(" Still Friday for me.");
      await page.getByRole("button", { name: "Keep mine" }).waitFor();
    });
    const before = await api(`/api/notes/${noteId}`);
    expect(before.body.note.contentText).toBe("Agent: moved to Monday.");

    await page.getByRole("button", { name: "Keep mine" }).click();
    await waitForSaved(page);
    const after = await api(`/api/notes/${noteId}`);
    expect(after.body.note.contentText).toBe("Agent summary: ship on Friday. Agreed. Still Friday for me.");
    expect(Number(/v(\d+)/.exec(after.headers.get("etag")!)![1])).toBeGreaterThan(Number(/v(\d+)/.exec(before.headers.get("etag")!)![1]));

    // After reloading the page, the kept text is what is there.
    await page.reload();
    await editorBody(page).waitFor();
    expect(await editorBody(page).innerText()).toContain("Still Friday for me.");
  });

  it("a change made elsewhere while the note sits open unchanged appears by itself, with nothing to answer", async () => {
    await agentRewrites("Agent: final answer is Tuesday.");
    await expect.poll(() => editorBody(page).innerText()).toContain("Agent: final answer is Tuesday.");
    expect(await editorBody(page).innerText()).not.toContain("Still Friday for me.");
    expect(await page.getByTestId("save-status").textContent()).toBe("Saved");
    expect(await page.locator(".editor-page .banner").count()).toBe(0);
  });

  it("text an API client stored without a body is offered, not silently replaced by the next save", async () => {
    const res = await api(`/api/notes/${noteId}`, { method: "PATCH", json: { contentText: "Plain words from a script." } });
    expect(res.status).toBe(200);
    await page.reload();
    await editorBody(page).waitFor();
    await page.getByText("This note’s text was changed without its formatted body").waitFor();
    await page.getByRole("button", { name: "Use the text" }).click();
    await expect.poll(() => editorBody(page).innerText()).toContain("Plain words from a script.");
    await waitForSaved(page);
    const note = (await api(`/api/notes/${noteId}`)).body.note;
    expect(note.contentText).toBe("Plain words from a script.");
    expect(note.content[0].type).toBe("paragraph");
  });

  it("offline, it says so and retries; back online, the changes are saved", async () => {
    const context = page.context();
    await context.setOffline(true);
    await typeAtEnd(" Written on a train.");
    await expect.poll(() => page.getByTestId("save-status").textContent()).toBe("Offline, retrying");
    await context.setOffline(false);
    await waitForSaved(page, 40_000);
    expect((await api(`/api/notes/${noteId}`)).body.note.contentText).toBe("Plain words from a script. Written on a train.");
  });

  it("signed out meanwhile, it keeps the text and saves after signing in again", async () => {
    const context = page.context();
    const cookies = await context.cookies();
    await context.clearCookies();
    await typeAtEnd(" After the session ended.");
    // The save failure's own alert: the list beside the note may say the same in one of its own.
    await page.locator("#save-failure", { hasText: "You have been signed out" }).waitFor();
    expect(await page.getByTestId("save-status").textContent()).toBe("Not saved");

    await context.addCookies(cookies);
    // The save's own Try again (the list beside the note, refreshed while signed out, may offer one too).
    await page.locator("#save-failure").getByRole("button", { name: "Try again" }).click();
    await waitForSaved(page);
    expect((await api(`/api/notes/${noteId}`)).body.note.contentText).toBe("Plain words from a script. Written on a train. After the session ended.");
  });
});
