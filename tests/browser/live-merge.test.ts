import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contentToText } from "@/lib/body/content-text";
import { createNote } from "@/lib/notes/mutations";
import { editorBody, screenshot, startBrowserStack, waitForSaved, type BrowserStack } from "@/tests/helpers/browser";

const paragraph = (id: string, text: string) => ({
  id,
  type: "paragraph",
  props: { textColor: "default", backgroundColor: "default", textAlignment: "left" },
  content: [{ type: "text", text, styles: {} }],
  children: [],
});
const BLOCK_A = "9b0c8f4e-5d7a-4c1b-9e3f-000000000a0a";
const BLOCK_B = "9b0c8f4e-5d7a-4c1b-9e3f-000000000b0b";
const BLOCK_C = "9b0c8f4e-5d7a-4c1b-9e3f-000000000c0c";

// A person and an agent write the same note at the same time: the page
// merges the agent's writes block by block while the person keeps typing.
describe("a person and an agent in the same note at once", () => {
  let stack: BrowserStack;
  let page: Page;
  const noteIds: string[] = [];
  const person = { email: "ada@example.com", password: "ada-password" };
  const api = (path: string, request: Parameters<BrowserStack["api"]>[1] = {}) => stack.api(path, { token: stack.tokenFor(person.email), ...request });
  const edit = (id: string, operations: unknown[]) => api(`/api/notes/${id}/edits`, { method: "POST", json: { operations } });
  const block = (id: string) => editorBody(page).locator(`[data-id="${id}"]`).first();

  beforeAll(async () => {
    stack = await startBrowserStack({
      accounts: [person],
      seed: async (db, [account]) => {
        for (const title of ["Launch plan", "Pricing"]) {
          const content = [paragraph(BLOCK_A, "Alpha: the plan."), paragraph(BLOCK_B, "Bravo: the budget."), paragraph(BLOCK_C, "Charlie: the date.")];
          // Each note its own ids: the same ids in two notes are fine, but clearer apart.
          const owned = content.map((item) => ({ ...item, id: `${item.id.slice(0, -4)}${noteIds.length}${item.id.slice(-3)}` }));
          const { note } = await createNote(db, { userId: account!.id, input: { title, content: owned, contentText: contentToText(owned) } });
          noteIds.push(note.id);
        }
      },
    });
    ({ page } = await stack.newPage());
    await stack.signIn(page, person);
  });
  afterAll(() => stack?.stop());

  const idIn = (note: number, id: string) => `${id.slice(0, -4)}${note}${id.slice(-3)}`;

  it("shows the agent's edits within seconds while the person types, and loses nothing", async () => {
    const noteId = noteIds[0]!;
    await page.goto(`/notes/${noteId}`);
    await editorBody(page).waitFor();
    await block(idIn(0, BLOCK_A)).locator(".bn-inline-content").click();
    await page.keyboard.press("End");

    // The person types without stopping while the agent writes twice.
    const typed = " The person keeps typing here, word after word, without a pause.";
    const typing = page.keyboard.type(typed, { delay: 60 });
    const appended = await edit(noteId, [{ op: "append", markdown: "Agent: added a closing line." }]);
    expect(appended.status).toBe(200);
    const replaced = await edit(noteId, [{ op: "replace_text", find: "the date", replace: "the date (Friday, checked by the agent)" }]);
    expect(replaced.status).toBe(200);

    // Both appear while the typing goes on; no banner asks anything.
    await expect.poll(() => editorBody(page).innerText(), { timeout: 5_000, interval: 100 }).toContain("Agent: added a closing line.");
    await expect.poll(() => editorBody(page).innerText(), { timeout: 5_000, interval: 100 }).toContain("the date (Friday, checked by the agent)");
    await typing;
    await screenshot(page, "live-merge-typing");
    expect(await page.locator(".editor-page .banner, .editor-page .alert").count()).toBe(0);
    expect(await page.getByTestId("merge-choice").count()).toBe(0);
    expect(await block(idIn(0, BLOCK_A)).innerText()).toBe(`Alpha: the plan.${typed}`);

    // Everything is saved: the person's typing and both agent edits, in order.
    await waitForSaved(page);
    const expected = [`Alpha: the plan.${typed}`, "Bravo: the budget.", "Charlie: the date (Friday, checked by the agent).", "Agent: added a closing line."].join("\n");
    await expect.poll(async () => (await api(`/api/notes/${noteId}`)).body.note.contentText).toBe(expected);
    await page.reload();
    await editorBody(page).waitFor();
    expect(await editorBody(page).innerText()).toContain(typed.trim());
    expect(await editorBody(page).innerText()).toContain("Agent: added a closing line.");

    // The history names both writers.
    await page.getByRole("button", { name: "History of this note" }).click();
    const history = page.getByRole("dialog");
    await history.locator('[data-author-kind="api"]').first().waitFor();
    await history.locator('[data-author-kind="browser"]').first().waitFor();
    await page.keyboard.press("Escape");
  });

  it("keeps the person's text where both changed the same block, shows the agent's beside it, and can keep both", async () => {
    const noteId = noteIds[1]!;
    await page.goto(`/notes/${noteId}`);
    await editorBody(page).waitFor();

    // The person's save is held on its way until the agent has written, so both change block B from the same version.
    let release: () => void = () => {};
    const agentWrote = new Promise<void>((resolve) => (release = resolve));
    await page.route(`**/notes/${noteId}`, async (route) => {
      if (route.request().method() === "POST") await agentWrote;
      await route.continue();
    });
    await block(idIn(1, BLOCK_B)).locator(".bn-inline-content").click();
    await page.keyboard.press("End");
    await page.keyboard.type(" Mine: keep it under 10k.");
    await expect.poll(() => page.getByTestId("save-status").textContent()).toBe("Saving…");
    const theirs = await edit(noteId, [
      { op: "replace_text", find: "the budget.", replace: "the budget is 12k (agent)." },
      { op: "replace_text", find: "the plan.", replace: "the plan (agent)." },
    ]);
    expect(theirs.status).toBe(200);
    release();

    const choice = page.getByTestId("merge-choice");
    await choice.waitFor();
    expect(await choice.locator('[data-side="mine"]').innerText()).toBe("Bravo: the budget. Mine: keep it under 10k.");
    expect(await choice.locator('[data-side="theirs"]').innerText()).toBe("Bravo: the budget is 12k (agent).");
    // The block only the agent changed is merged without asking.
    await expect.poll(() => block(idIn(1, BLOCK_A)).innerText()).toBe("Alpha: the plan (agent).");
    await screenshot(page, "live-merge-choice");
    // At phone width the two versions stack, each readable, the buttons within the screen.
    const viewport = page.viewportSize()!;
    await page.setViewportSize({ width: 360, height: 740 });
    const [mineBox, theirsBox] = [await choice.locator('[data-side="mine"]').boundingBox(), await choice.locator('[data-side="theirs"]').boundingBox()];
    expect(theirsBox!.y).toBeGreaterThan(mineBox!.y);
    for (const button of await choice.getByRole("button").all()) {
      const box = (await button.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(360);
    }
    await screenshot(page, "live-merge-choice-phone");
    await page.setViewportSize(viewport);
    await waitForSaved(page);
    expect((await api(`/api/notes/${noteId}`)).body.note.contentText).toContain("Bravo: the budget. Mine: keep it under 10k.");

    await choice.getByRole("button", { name: "Keep both" }).click();
    await waitForSaved(page);
    await expect
      .poll(async () => (await api(`/api/notes/${noteId}`)).body.note.contentText)
      .toBe(["Alpha: the plan (agent).", "Bravo: the budget. Mine: keep it under 10k.", "Bravo: the budget is 12k (agent).", "Charlie: the date."].join("\n"));
    expect(await page.getByTestId("merge-choice").count()).toBe(0);
    await page.unroute(`**/notes/${noteId}`);
  });

  it("an open tab that sits idle asks with a conditional request the server answers 304", async () => {
    const noteId = noteIds[1]!;
    const answers: number[] = [];
    page.on("response", (response) => {
      if (response.url().endsWith(`/api/notes/${noteId}`) && response.request().method() === "GET") answers.push(response.status());
    });
    await expect.poll(() => answers.length, { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
    expect(answers.every((status) => status === 304)).toBe(true);
  });
});
