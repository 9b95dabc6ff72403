import type { Page, Request } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contentToText } from "@/lib/body/content-text";
import { createNote } from "@/lib/notes/mutations";
import { editorBody, screenshot, startBrowserStack, waitForSaved, type BrowserStack } from "@/tests/helpers/browser";
import { storedNote } from "@/tests/helpers/editor";

const paragraph = (text: string) => ({ type: "paragraph", content: [{ type: "text", text, styles: {} }] });

/** Words that make the database refuse the update (a trigger installed for this test): a real server failure. */
const BREAKING_WORDS = "server breaks here";

// A save that does not go through must say why, keep the person's text on the
// page and in this browser, and never pass a server's refusal off as "Offline".
describe("when a save does not go through", () => {
  let stack: BrowserStack;
  const person = { email: "hedy@example.com", password: "hedy-password-1" };
  const notes: Record<string, string> = {};
  const stored = (id: string) => storedNote(stack, person.email, id);

  beforeAll(async () => {
    stack = await startBrowserStack({
      accounts: [person],
      seed: async (db, [account]) => {
        await db.$executeRawUnsafe(`
          CREATE FUNCTION refuse_breaking_words() RETURNS trigger AS $$
          BEGIN
            IF NEW.content_text LIKE '%${BREAKING_WORDS}%' THEN RAISE EXCEPTION 'storage failure for this test'; END IF;
            RETURN NEW;
          END $$ LANGUAGE plpgsql`);
        await db.$executeRawUnsafe(`CREATE TRIGGER refuse_breaking_words BEFORE UPDATE ON notes FOR EACH ROW EXECUTE FUNCTION refuse_breaking_words()`);
        for (const title of ["Quarterly plan", "Phone plan", "Proxy plan", "Huge paste"]) {
          const content = [paragraph(`${title}: first draft.`)];
          const { note } = await createNote(db, { userId: account!.id, input: { title, content, contentText: contentToText(content) } });
          notes[title] = note.id;
        }
      },
    });
  });
  afterAll(() => stack?.stop());

  /** A signed-in page that accepts "leave with unsaved changes?" and counts the editor's save requests. */
  async function openPage(options: { phone?: boolean } = {}) {
    const { context, page } = await stack.newPage(options.phone ? { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true } : {});
    await stack.signIn(page, person);
    page.on("dialog", (dialog) => void dialog.accept());
    const saves: Request[] = [];
    page.on("request", (request) => {
      // Only saves: the page's other server actions (version checks, loading a note) carry no version.
      if (request.method() === "POST" && request.headers()["next-action"] && request.postData()?.includes('"version":')) saves.push(request);
    });
    return { context, page, saves };
  }

  async function open(page: Page, title: string) {
    await page.goto(`/notes/${notes[title]}`);
    await editorBody(page).waitFor();
  }

  async function typeAtEnd(page: Page, text: string) {
    await editorBody(page).locator('[data-content-type="paragraph"]').first().click();
    await page.keyboard.press("End");
    await page.keyboard.type(text);
  }

  const status = (page: Page) => page.getByTestId("save-status").textContent();
  const draftIn = (page: Page, title: string) => page.evaluate((id) => localStorage.getItem(`notes:draft:${id}`), notes[title]!);

  /** Records every save status shown, to prove "Offline" never appears. */
  async function watchStatuses(page: Page): Promise<() => Promise<string[]>> {
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { seenStatuses: string[] }).seenStatuses = seen;
      const element = document.querySelector('[data-testid="save-status"]')!;
      new MutationObserver(() => seen.push(element.textContent ?? "")).observe(element, { childList: true, characterData: true, subtree: true });
    });
    return () => page.evaluate(() => (window as unknown as { seenStatuses: string[] }).seenStatuses);
  }

  it("a server failure shows the server's reason, is retried a few times only, and the text survives a reload", { timeout: 120_000 }, async () => {
    const { context, page, saves } = await openPage();
    await open(page, "Quarterly plan");
    const statuses = await watchStatuses(page);
    await typeAtEnd(page, ` The ${BREAKING_WORDS} today.`);

    const alert = page.locator(".save-failure");
    await alert.waitFor();
    const reason = await page.getByTestId("save-failure-reason").innerText();
    expect(reason).toMatch(/^The server failed while saving your changes \(an error on our side, reference [0-9a-f]{8}\)\.$/);
    // The server's log line for that reference names the note and the account, never the text.
    const reference = /reference ([0-9a-f]{8})/.exec(reason)![1]!;
    const logged = stack.app.output().split("\n").find((line) => line.includes(`"reference":"${reference}"`));
    expect(JSON.parse(logged!)).toMatchObject({ level: "error", event: "note.save_failed", noteId: notes["Quarterly plan"], userId: expect.any(String) });
    expect(logged).not.toContain(BREAKING_WORDS);
    expect(await status(page)).toBe("Not saved");
    expect(await alert.innerText()).toContain("kept in this browser");
    // Retried twice by itself, then it waits for the person: three requests, no more.
    await expect.poll(() => alert.innerText(), { timeout: 30_000 }).not.toContain("Trying again");
    expect(saves).toHaveLength(3);
    expect(await statuses()).not.toContain("Offline, retrying");
    await screenshot(page, "save-failed");

    expect(await draftIn(page, "Quarterly plan")).toContain(BREAKING_WORDS);
    expect((await stored(notes["Quarterly plan"]!)).contentText).toBe("Quarterly plan: first draft.");

    // Reloading (or coming back later) shows the unsaved text again, with why it was not saved.
    await page.reload();
    await editorBody(page).waitFor();
    const banner = page.locator(".banner-draft");
    await banner.waitFor();
    await expect.poll(() => editorBody(page).innerText()).toContain(`The ${BREAKING_WORDS} today.`);
    expect(await banner.innerText()).toContain("Unsaved changes restored");
    expect(await page.getByTestId("draft-reason").innerText()).toMatch(/The server failed while saving your changes/);
    expect(await status(page)).toBe("Not saved");
    await screenshot(page, "save-restored");
    // Nothing is sent again on its own after the reload.
    const before = saves.length;
    expect(await draftIn(page, "Quarterly plan")).toContain(BREAKING_WORDS);

    // Saving it unchanged fails again, with the reason.
    await page.getByRole("button", { name: "Save these changes" }).click();
    await alert.waitFor();
    expect(saves.length).toBe(before + 1);

    // The person rewrites the sentence: the change is saved and the kept copy is dropped.
    await editorBody(page).locator('[data-content-type="paragraph"]').first().click({ clickCount: 3 });
    await page.keyboard.type("Quarterly plan: the server works fine today.");
    await waitForSaved(page, 30_000);
    expect(await alert.count()).toBe(0);
    expect((await stored(notes["Quarterly plan"]!)).contentText).toBe("Quarterly plan: the server works fine today.");
    expect(await draftIn(page, "Quarterly plan")).toBeNull();
    await page.reload();
    await editorBody(page).waitFor();
    expect(await page.locator(".banner-draft").count()).toBe(0);
    expect(await editorBody(page).innerText()).toContain("the server works fine today.");
    await context.close();
  });

  it("a proxy in front of the server answering 502: the reason is shown, not “Offline”", { timeout: 90_000 }, async () => {
    const { context, page, saves } = await openPage();
    await open(page, "Proxy plan");
    await page.route(/\/notes\/[0-9a-f-]{36}$/, (route) =>
      route.request().method() === "POST" ? route.fulfill({ status: 502, contentType: "text/plain", body: "Bad Gateway" }) : route.fallback(),
    );
    await typeAtEnd(page, " Behind a proxy.");
    await page.locator(".save-failure").waitFor();
    expect(await page.getByTestId("save-failure-reason").innerText()).toBe(
      "The server answered with an error instead of saving your changes: “Bad Gateway”.",
    );
    expect(await status(page)).toBe("Not saved");
    await expect.poll(() => page.locator(".save-failure").innerText(), { timeout: 30_000 }).not.toContain("Trying again");
    expect(saves).toHaveLength(3);

    // The proxy recovers; "Try again" saves.
    await page.unroute(/\/notes\/[0-9a-f-]{36}$/);
    await page.locator("#save-failure").getByRole("button", { name: "Try again" }).click();
    await waitForSaved(page);
    expect(saves).toHaveLength(4);
    expect((await stored(notes["Proxy plan"]!)).contentText).toBe("Proxy plan: first draft. Behind a proxy.");
    await context.close();
  });

  it("a note too large to save says so and is not sent; after a reload it can be discarded", { timeout: 180_000 }, async () => {
    const { context, page, saves } = await openPage();
    await open(page, "Huge paste");
    const sentBefore = saves.length;
    // A 2 MB paste, 2,000 paragraphs of a kilobyte: more than a note can hold.
    await editorBody(page).locator('[data-content-type="paragraph"]').first().click();
    await page.keyboard.press("End");
    await page.evaluate(() => {
      const data = new DataTransfer();
      data.setData("text/plain", Array.from({ length: 2000 }, () => "lorem ipsum dolor sit amet ".repeat(40).trim()).join("\n\n"));
      document.querySelector(".bn-editor")!.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
    });
    await page.locator(".save-failure").waitFor({ timeout: 30_000 });
    expect(await page.getByTestId("save-failure-reason").innerText()).toMatch(
      /^This note is too large to save: its body is 2\.\d\d MB, and a note can hold at most 1\.90 MB\. Split it/,
    );
    expect(await page.locator(".save-failure").innerText()).not.toContain("Trying again");
    expect(saves.length).toBe(sentBefore);
    // The alert is far above after the paste; the status in the bar brings it into view.
    const inView = () => page.locator(".save-failure").evaluate((el) => el.getBoundingClientRect().top >= 0 && el.getBoundingClientRect().bottom <= window.innerHeight);
    expect(await inView()).toBe(false);
    await page.getByRole("button", { name: /Not saved/ }).click();
    await expect.poll(inView).toBe(true);
    await screenshot(page, "save-too-large");
    expect((await draftIn(page, "Huge paste"))?.split("lorem ipsum dolor sit amet").length).toBeGreaterThan(80_000);

    // Bounds for a 2 MB body restored into the editor on a loaded machine, not speed targets.
    await page.reload();
    await page.locator(".banner-draft").waitFor({ timeout: 90_000 });
    expect(await page.getByTestId("draft-reason").innerText()).toContain("too large to save");
    await editorBody(page).waitFor({ timeout: 90_000 });
    await expect.poll(() => editorBody(page).innerText(), { timeout: 90_000 }).toContain("lorem ipsum dolor sit amet lorem");

    await page.getByRole("button", { name: "Discard them" }).click();
    await expect.poll(() => editorBody(page).innerText()).toBe("Huge paste: first draft.");
    expect(await status(page)).toBe("Saved");
    expect(await page.locator(".banner-draft").count()).toBe(0);
    expect(await draftIn(page, "Huge paste")).toBeNull();
    expect(saves.length).toBe(sentBefore);
    await context.close();
  });

  it("at phone width the failure and the restored changes read well", { timeout: 120_000 }, async () => {
    const { context, page } = await openPage({ phone: true });
    await open(page, "Phone plan");
    await typeAtEnd(page, ` The ${BREAKING_WORDS} on a phone.`);
    await page.locator(".save-failure").waitFor();
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    await screenshot(page, "save-failed-phone");
    expect(await overflow()).toBeLessThanOrEqual(0);

    await page.reload();
    await page.locator(".banner-draft").waitFor();
    await screenshot(page, "save-restored-phone");
    expect(await overflow()).toBeLessThanOrEqual(0);
    await context.close();
  });
});
