import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contentToText } from "@/lib/editor/content-text";
import { createNote } from "@/lib/notes/mutations";
import { editorBody, screenshot, startBrowserStack, waitForSaved, type BrowserStack } from "@/tests/helpers/browser";

const BLOCKS = 2000;

/** A long, realistic body: sections of headings, paragraphs, lists, checklists and code. */
function longDocument(count: number) {
  const text = (value: string) => [{ type: "text", text: value, styles: {} }];
  const blocks = [];
  for (let i = 0; i < count; i += 1) {
    const n = i + 1;
    if (i % 100 === 0) blocks.push({ type: "heading", props: { level: 2 }, content: text(`Section ${Math.floor(i / 100) + 1}`) });
    else if (i % 10 === 1) blocks.push({ type: "bulletListItem", content: text(`Point ${n}: a short bullet about something worth keeping`) });
    else if (i % 10 === 2) blocks.push({ type: "checkListItem", props: { checked: i % 20 === 2 }, content: text(`Task ${n}`) });
    else if (i % 50 === 3) blocks.push({ type: "codeBlock", props: { language: "typescript" }, content: text(`const value${n} = compute(${n});\nconsole.log(value${n});`) });
    else blocks.push({ type: "paragraph", content: text(`Paragraph ${n}. The quick brown fox jumps over the lazy dog, and notes grow long over a year of meetings.`) });
  }
  blocks[count - 1] = { type: "paragraph", content: text("The very last block.") };
  return blocks;
}

// Measured, not asserted: how long a long note takes to become editable in a
// headless browser against the production build. The number is logged.
describe("a note of 2,000 blocks", () => {
  let stack: BrowserStack;
  let noteId = "";
  const person = { email: "long@example.com", password: "long-password" };

  beforeAll(async () => {
    stack = await startBrowserStack({
      accounts: [person],
      seed: async (db, [account]) => {
        const content = longDocument(BLOCKS);
        // Many small notes too, older than the long one, for the list's pages.
        for (let i = 1; i <= 60; i += 1) {
          const body = [{ type: "paragraph", content: [{ type: "text", text: `Daily log ${i}`, styles: {} }] }];
          await createNote(db, { userId: account!.id, input: { title: `Day ${i}`, content: body, contentText: contentToText(body) } });
        }
        const { note } = await createNote(db, { userId: account!.id, input: { title: "A year of meetings", content, contentText: contentToText(content) } });
        noteId = note.id;
      },
    });
  });
  afterAll(() => stack?.stop());

  it("time from navigation to an editable editor (logged), then it still saves", { timeout: 120_000 }, async () => {
    const { page } = await stack.newPage();
    await stack.signIn(page, person);

    const timings: number[] = [];
    for (let run = 0; run < 3; run += 1) {
      const started = performance.now();
      await page.goto(`/notes/${noteId}`, { waitUntil: "commit" });
      await editorBody(page).waitFor({ timeout: 60_000 });
      await editorBody(page).locator('[data-content-type="paragraph"]', { hasText: "The very last block." }).waitFor({ timeout: 60_000 });
      timings.push(performance.now() - started);
    }
    const blocks = await editorBody(page).locator(".bn-block-outer").count();
    expect(blocks).toBe(BLOCKS);
    const navigation = await page.evaluate(() => {
      const [entry] = performance.getEntriesByType("navigation") as PerformanceNavigationTiming[];
      return entry ? { responseEnd: Math.round(entry.responseEnd), domContentLoaded: Math.round(entry.domContentLoadedEventEnd) } : null;
    });
    const [first, ...warm] = timings.map((ms) => Math.round(ms));
    process.stdout.write(
      `\n[measure] ${BLOCKS}-block note: navigation → editable editor with every block rendered: first ${first} ms, then ${warm.join(" ms, ")} ms` +
        ` (last run: HTML received at ${navigation?.responseEnd} ms, DOMContentLoaded at ${navigation?.domContentLoaded} ms)\n`,
    );
    await screenshot(page, "editor-2000-blocks");

    // A long body is still saved whole.
    const last = editorBody(page).locator('[data-content-type="paragraph"]', { hasText: "The very last block." });
    await last.click();
    await page.keyboard.press("End");
    await page.keyboard.type(" Appended at the end.");
    const saveStarted = performance.now();
    await waitForSaved(page, 30_000);
    process.stdout.write(`[measure] saving the ${BLOCKS}-block note after an edit: ${Math.round(performance.now() - saveStarted)} ms (includes the 0.7 s typing pause)\n`);
    const saved = await stack.api(`/api/notes/${noteId}`, { token: stack.tokenFor(person.email) });
    expect(saved.body.note.content).toHaveLength(BLOCKS);
    expect(saved.body.note.contentText.endsWith("The very last block. Appended at the end.")).toBe(true);
  });

  it("the list pages through many notes, newest first", async () => {
    const { page } = await stack.newPage();
    await stack.signIn(page, person);
    const titles = () => page.locator("[data-note-row] .note-title").allInnerTexts();
    expect((await titles()).slice(0, 3)).toEqual(["A year of meetings", "Day 60", "Day 59"]);
    expect(await titles()).toHaveLength(25);
    expect(await page.getByRole("navigation", { name: "Pages" }).innerText()).toContain("1–25 of 61");
    await page.getByRole("link", { name: "Older →" }).click();
    await page.waitForURL(/\/notes\?page=2$/);
    expect((await titles())[0]).toBe("Day 36");
    await page.getByRole("link", { name: "Older →" }).click();
    await page.waitForURL(/page=3$/);
    expect(await titles()).toEqual(["Day 11", "Day 10", "Day 9", "Day 8", "Day 7", "Day 6", "Day 5", "Day 4", "Day 3", "Day 2", "Day 1"]);
  });
});
