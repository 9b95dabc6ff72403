import type { Page, Request } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contentToText } from "@/lib/body/content-text";
import { createNote } from "@/lib/notes/mutations";
import { createTag } from "@/lib/tags/mutations";
import { seriousAxeFindings } from "@/tests/helpers/axe";
import { editorBody, noteIdFromUrl, pressShortcut, screenshot, startBrowserStack, waitForSaved, type BrowserStack } from "@/tests/helpers/browser";

const text = (value: string) => [{ type: "text", text: value, styles: {} }];
const paragraphs = (...lines: string[]) => lines.map((line) => ({ type: "paragraph", content: text(line) }));

/** The list beside the open note, and its rows. */
const pane = (page: Page) => page.getByRole("navigation", { name: "Your notes" });
const paneRows = (page: Page) => page.locator("[data-pane-row]");
const focusedRowTitle = (page: Page) => page.evaluate(() => (document.activeElement?.matches("[data-pane-row]") ? document.activeElement.querySelector(".note-title")?.textContent : null));
const bodyFocused = (page: Page) => page.evaluate(() => document.activeElement?.classList.contains("bn-editor") ?? false);

/**
 * The desktop's two panes (≥ 1,024 px): the list of notes, with its own
 * search and tag filter, beside the open note; the keyboard moves between
 * them; the address names the note. Phones and tablets keep one pane.
 */
describe("the list beside the open note", () => {
  let stack: BrowserStack;
  const person = { email: "hedy@example.com", password: "hedy-password" };
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    stack = await startBrowserStack({
      accounts: [person],
      seed: async (db, [account]) => {
        const userId = account!.id;
        const travel = await createTag(db, { userId, input: { name: "travel" } });
        const notes = [
          { title: "Groceries", body: paragraphs("Oat milk, coffee beans, lemons.") },
          { title: "Trip to Lisbon", body: paragraphs("Book the tram tour and the azulejo museum."), tagIds: [travel.id] },
          { title: "Reading list", body: paragraphs("The Left Hand of Darkness.") },
          { title: "Porto weekend", body: paragraphs("Port cellars on Saturday."), tagIds: [travel.id] },
        ];
        // Created in order: the newest (Porto weekend) lists first.
        for (const note of notes) {
          const created = await createNote(db, { userId, input: { title: note.title, content: note.body, contentText: contentToText(note.body), tagIds: note.tagIds } });
          ids[note.title] = created.note.id;
        }
        const pinned = await createNote(db, { userId, input: { title: "Passwords policy", content: paragraphs("Rotate yearly."), contentText: "Rotate yearly.", pinned: true } });
        ids["Passwords policy"] = pinned.note.id;
      },
    });
  });
  afterAll(() => stack?.stop());

  async function signedInPage(width: number, height = 860) {
    const { context, page } = await stack.newPage({ viewport: { width, height } });
    await stack.signIn(page, person);
    return { context, page };
  }

  it("at 1,280 px the open note shows beside the list, its row marked; the address names the note and a reload keeps both", async () => {
    const { context, page } = await signedInPage(1280);
    try {
      await page.goto(`/notes/${ids["Reading list"]}`);
      await editorBody(page).waitFor();
      await paneRows(page).first().waitFor();
      // Pinned first, then the rest, newest first: as the notes page lists them.
      expect(await paneRows(page).locator(".note-title").allTextContents()).toEqual(["Passwords policy", "Porto weekend", "Reading list", "Trip to Lisbon", "Groceries"]);
      const current = paneRows(page).and(page.locator('[aria-current="page"]'));
      expect(await current.locator(".note-title").textContent()).toBe("Reading list");
      // Side by side: the list on the left, the note on its right, nothing scrolling sideways.
      const list = (await pane(page).boundingBox())!;
      const title = (await page.locator("#note-title").boundingBox())!;
      expect(list.x).toBe(0);
      expect(title.x).toBeGreaterThanOrEqual(list.x + list.width);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await screenshot(page, "two-pane-desktop");

      // A click on a row opens that note; the address follows.
      await paneRows(page).filter({ hasText: "Trip to Lisbon" }).click();
      await page.waitForURL(`**/notes/${ids["Trip to Lisbon"]}`);
      await expect.poll(() => page.locator("#note-title").inputValue()).toBe("Trip to Lisbon");
      await expect.poll(() => current.locator(".note-title").textContent()).toBe("Trip to Lisbon");

      await page.reload();
      await editorBody(page).waitFor();
      await expect.poll(() => current.locator(".note-title").textContent()).toBe("Trip to Lisbon");
      expect(await page.locator("#note-title").inputValue()).toBe("Trip to Lisbon");

      // Nothing serious or critical for axe, light and dark, with the list beside the note.
      for (const scheme of ["light", "dark"] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        expect((await seriousAxeFindings(page)).map((finding) => `${scheme}: ${finding}`)).toEqual([]);
        await screenshot(page, `two-pane-desktop-${scheme}`);
      }
    } finally {
      await context.close();
    }
  });

  it("phones (360 px) and tablets (768 px) keep one pane: the note alone, the list a page of its own", async () => {
    for (const width of [360, 768]) {
      const { context, page } = await signedInPage(width, 900);
      try {
        await page.goto(`/notes/${ids["Reading list"]}`);
        await editorBody(page).waitFor();
        expect(await pane(page).count()).toBe(0);
        expect(await page.locator(".notes-pane").isVisible()).toBe(false);
        expect(await paneRows(page).count()).toBe(0);
        // The note's column starts at the page's gutter, as before.
        const title = (await page.locator("#note-title").boundingBox())!;
        expect(title.x).toBeLessThan(width / 4);
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
        await screenshot(page, `two-pane-one-pane-${width}`);

        // Made wide (a tablet turned, a window widened), the list appears beside the note.
        await page.setViewportSize({ width: 1100, height: 900 });
        await paneRows(page).first().waitFor();
        expect(await pane(page).isVisible()).toBe(true);
      } finally {
        await context.close();
      }
    }
  });

  it("the keyboard: Esc in the body goes to the note's row, ↑/↓ move through the list, Enter opens a note to type in", async () => {
    const { context, page } = await signedInPage(1280);
    try {
      await page.goto(`/notes/${ids["Reading list"]}`);
      await paneRows(page).first().waitFor();
      await editorBody(page).locator('[data-content-type="paragraph"]').first().click();
      await page.keyboard.press("Escape");
      await expect.poll(() => focusedRowTitle(page)).toBe("Reading list");

      await page.keyboard.press("ArrowDown");
      await expect.poll(() => focusedRowTitle(page)).toBe("Trip to Lisbon");
      await page.keyboard.press("ArrowUp");
      await page.keyboard.press("ArrowUp");
      await expect.poll(() => focusedRowTitle(page)).toBe("Porto weekend");
      await screenshot(page, "two-pane-row-focused");

      await page.keyboard.press("Enter");
      await page.waitForURL(`**/notes/${ids["Porto weekend"]}`);
      await expect.poll(() => bodyFocused(page)).toBe(true);
      // The caret is at the body's start: what is typed goes into this note, first.
      await page.keyboard.type("Trains from Lisbon at 9. ");
      await waitForSaved(page);
      const saved = await stack.api(`/api/notes/${ids["Porto weekend"]}`, { token: stack.tokenFor(person.email) });
      expect(saved.body.note.contentText).toBe("Trains from Lisbon at 9. Port cellars on Saturday.");

      // Back to the list, to the search above it, and down again.
      await page.keyboard.press("Escape");
      await expect.poll(() => focusedRowTitle(page)).toBe("Porto weekend");
      await page.keyboard.press("ArrowUp");
      await page.keyboard.press("ArrowUp");
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("note-search");
      await page.keyboard.press("ArrowDown");
      await expect.poll(() => focusedRowTitle(page)).toBe("Passwords policy");

      // Enter on the open note's own row goes back into its body.
      await page.keyboard.press("ArrowDown");
      await expect.poll(() => focusedRowTitle(page)).toBe("Porto weekend");
      await page.keyboard.press("Enter");
      await expect.poll(() => bodyFocused(page)).toBe(true);
      expect(noteIdFromUrl(page.url())).toBe(ids["Porto weekend"]);

      // A click on the open note's own row opens nothing again: no navigation (no fetch of the page).
      const navigations: string[] = [];
      const onRequest = (request: Request) => {
        const headers = request.headers();
        if (headers.rsc === "1" && !("next-router-prefetch" in headers)) navigations.push(request.url());
      };
      page.on("request", onRequest);
      await paneRows(page).filter({ hasText: "Porto weekend" }).click();
      // A click elsewhere is a navigation the listener sees: once it has, the row's click would have been seen too.
      await paneRows(page).filter({ hasText: "Reading list" }).click();
      await page.waitForURL(`**/notes/${ids["Reading list"]}`);
      await expect.poll(() => navigations.length).toBeGreaterThan(0);
      page.off("request", onRequest);
      expect(navigations.every((url) => url.includes(ids["Reading list"]!))).toBe(true);
      await page.goBack();
      await page.waitForURL(`**/notes/${ids["Porto weekend"]}`);
      await editorBody(page).click();

      // Esc closing the slash menu stays in the note.
      await page.keyboard.press("End");
      await page.keyboard.press("Enter");
      await page.keyboard.type("/");
      await page.getByRole("listbox", { name: "Blocks" }).waitFor();
      await page.keyboard.press("Escape");
      await expect.poll(() => page.getByRole("listbox", { name: "Blocks" }).count()).toBe(0);
      expect(await bodyFocused(page)).toBe(true);
    } finally {
      await context.close();
    }
  });

  it("the list's own search and tag filter narrow it while the open note stays open; / goes to that search", async () => {
    const { context, page } = await signedInPage(1280);
    try {
      await page.goto(`/notes/${ids["Groceries"]}`);
      await paneRows(page).first().waitFor();
      await pressShortcut(page, "/");
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("note-search");
      await page.keyboard.type("azulejo");
      // "az" alone finds the same note: the whole word is marked once its own search has answered.
      await expect.poll(() => paneRows(page).locator(".note-excerpt mark").first().textContent()).toBe("azulejo");
      expect(await paneRows(page).locator(".note-title").allTextContents()).toEqual(["Trip to Lisbon"]);
      await screenshot(page, "two-pane-search");
      // The open note is not in the results; it stays open, and the address did not change.
      expect(noteIdFromUrl(page.url())).toBe(ids["Groceries"]);
      expect(await page.locator("#note-title").inputValue()).toBe("Groceries");

      await page.keyboard.press("Escape");
      await expect.poll(() => paneRows(page).count()).toBe(5);
      await pane(page).getByRole("combobox", { name: "Filter by tag" }).selectOption({ label: "travel (2)" });
      await expect.poll(() => paneRows(page).locator(".note-title").allTextContents()).toEqual(["Porto weekend", "Trip to Lisbon"]);
      expect(await page.locator("#note-title").inputValue()).toBe("Groceries");
    } finally {
      await context.close();
    }
  });

  it("the open note's row follows its edits; an untouched new note left through the list leaves no row behind", async () => {
    const { context, page } = await signedInPage(1280);
    try {
      await page.goto(`/notes/${ids["Groceries"]}`);
      await paneRows(page).first().waitFor();
      const title = page.locator("#note-title");
      await title.fill("Groceries for Sunday");
      // The row shows the title as typed at once, in its old place (the oldest note, last), before the list is read again.
      await expect.poll(() => paneRows(page).locator(".note-title").allTextContents().then((titles) => titles.at(-1))).toBe("Groceries for Sunday");
      await waitForSaved(page);
      // Esc in the title goes to the note's row too.
      await page.keyboard.press("Escape");
      await expect.poll(() => focusedRowTitle(page)).not.toBeNull();
      // Saved, it is the newest note now: first after the pinned one, with its new title.
      await expect.poll(() => paneRows(page).locator(".note-title").allTextContents()).toEqual(["Passwords policy", "Groceries for Sunday", "Porto weekend", "Reading list", "Trip to Lisbon"]);

      await pressShortcut(page, "n");
      await page.waitForURL(/\/notes\/[0-9a-f-]{36}\?new=1$/);
      await editorBody(page).waitFor();
      const newId = noteIdFromUrl(page.url());
      // Not stored until its first save: no row for it.
      expect(await paneRows(page).and(page.locator('[aria-current="page"]')).count()).toBe(0);
      await paneRows(page).filter({ hasText: "Reading list" }).click();
      await page.waitForURL(`**/notes/${ids["Reading list"]}`);
      await expect.poll(async () => (await stack.api(`/api/notes/${newId}`, { token: stack.tokenFor(person.email) })).status).toBe(404);
      await expect.poll(() => paneRows(page).locator(".note-title").allTextContents()).toEqual(["Passwords policy", "Groceries for Sunday", "Porto weekend", "Reading list", "Trip to Lisbon"]);
    } finally {
      await context.close();
    }
  });
});
