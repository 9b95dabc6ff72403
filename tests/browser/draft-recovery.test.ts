import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contentToText } from "@/lib/body/content-text";
import { createNote } from "@/lib/notes/mutations";
import { editorBody, startBrowserStack, waitForSaved, type BrowserStack } from "@/tests/helpers/browser";
import { storedNote } from "@/tests/helpers/editor";

const paragraph = (text: string) => ({ type: "paragraph", content: [{ type: "text", text, styles: {} }] });

const TYPED = ["Day one: Alfama and the castle.", "Day two: Belém, the tower and pastries."];

// Saves that never reached the server (the connection gone, then the tab
// closed) leave the typed text in this browser; opening the note again shows it,
// unsaved, and "Save these changes" saves it. Development mode, where React
// mounts every component twice (the restored draft was once rewritten empty
// there, and then saved over the note), is tried in npm run dev itself:
// tests/e2e/npm-run-dev.test.ts.
describe("unsaved text after a close", () => {
  let stack: BrowserStack;
  const person = { email: "ines@example.com", password: "ines-password-1" };
  let noteId = "";

  beforeAll(async () => {
    stack = await startBrowserStack({
      accounts: [person],
      seed: async (db, [account]) => {
        const content = [paragraph("Lisbon, three days.")];
        const { note } = await createNote(db, { userId: account!.id, input: { title: "Lisbon trip", content, contentText: contentToText(content) } });
        noteId = note.id;
      },
    });
  });
  afterAll(() => stack?.stop());

  it("is shown again after the close, and saved by “Save these changes”", async () => {
    const { context, page } = await stack.newPage();
    await stack.signIn(page, person);
    await page.goto(`/notes/${noteId}`);
    await editorBody(page).waitFor();

    // The connection goes: no save reaches the server, then the tab is closed.
    await context.setOffline(true);
    await editorBody(page).locator('[data-content-type="paragraph"]').first().click();
    await page.keyboard.press("End");
    for (const line of TYPED) {
      await page.keyboard.press("Enter");
      await page.keyboard.type(line);
    }
    const draft = () => page.evaluate((id) => localStorage.getItem(`notes:draft:${id}`), noteId);
    await expect.poll(draft).toContain(TYPED[1]);
    await expect.poll(() => page.getByTestId("save-status").textContent()).toBe("Offline, retrying");
    await page.close();
    await context.setOffline(false);

    const reopened = await context.newPage();
    await reopened.goto(`/notes/${noteId}`);
    const banner = reopened.locator(".banner-draft");
    await banner.waitFor();
    expect(await banner.innerText()).toContain("Unsaved changes restored");
    await expect.poll(() => editorBody(reopened).innerText()).toContain(TYPED[1]);
    expect(await editorBody(reopened).innerText()).toContain(TYPED[0]);
    // The browser's copy still holds the text (development's second mount once rewrote it empty).
    const kept = await reopened.evaluate((id) => localStorage.getItem(`notes:draft:${id}`), noteId);
    expect(kept).toContain(TYPED[0]);
    expect(kept).toContain(TYPED[1]);
    expect((await storedNote(stack, person.email, noteId)).contentText).toBe("Lisbon, three days.");

    await reopened.getByRole("button", { name: "Save these changes" }).click();
    await waitForSaved(reopened);
    expect((await storedNote(stack, person.email, noteId)).contentText).toBe(["Lisbon, three days.", ...TYPED].join("\n"));
    expect(await reopened.evaluate((id) => localStorage.getItem(`notes:draft:${id}`), noteId)).toBeNull();
    await context.close();
  });
});
