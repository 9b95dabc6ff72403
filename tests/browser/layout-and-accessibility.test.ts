import type { BrowserContext, BrowserContextOptions, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contentToText } from "@/lib/body/content-text";
import { createNote } from "@/lib/notes/mutations";
import { createTag } from "@/lib/tags/mutations";
import { seriousAxeFindings } from "@/tests/helpers/axe";
import { editorBody, pressShortcut, screenshot, startBrowserStack, type BrowserStack } from "@/tests/helpers/browser";

const WIDTHS = [
  { name: "phone", width: 360, height: 740 },
  { name: "tablet", width: 768, height: 1000 },
  { name: "desktop", width: 1280, height: 860 },
] as const;
const SCHEMES = ["light", "dark"] as const;

const LONG_TITLE = "A very long note title that goes on and on about the quarterly planning meeting, its agenda, its minutes and every follow-up";
const LONG_TAG = "a-very-long-tag-name-without-any-spaces-0123456789";
const ARABIC = "الاجتماع القادم يوم الأحد، في الساعة العاشرة.";
const text = (value: string) => [{ type: "text", text: value, styles: {} }];

type Target = {
  name: string;
  path: string;
  signedIn: boolean;
  ready: (page: Page) => Promise<void>;
  /** A page laid out as one centered card, or a menu or dialog over a page: between phone and desktop nothing of it changes but its width, so the tablet width is not checked. */
  edgesOnly?: boolean;
};

/**
 * Every page, at desktop, tablet and phone widths, light and dark: axe finds
 * nothing serious or critical, nothing scrolls sideways (and, with
 * SCREENSHOTS=1, a screenshot of each is kept).
 */
describe("layout and accessibility of every page", () => {
  let stack: BrowserStack;
  let signedIn: Awaited<ReturnType<BrowserContext["storageState"]>>;
  let noteId = "";
  const person = { email: "ada.with.a.rather.long.address@example.com", password: "ada-password" };

  beforeAll(async () => {
    stack = await startBrowserStack({
      accounts: [person],
      seed: async (db, [account]) => {
        const userId = account!.id;
        const tag = await createTag(db, { userId, input: { name: "planning" } });
        // A name with no space to wrap at, on the pinned note: the list, its filter and the note's picker must hold it.
        const longTag = await createTag(db, { userId, input: { name: LONG_TAG } });
        const content = [
          { type: "heading", props: { level: 1 }, content: text("Planning") },
          { type: "heading", props: { level: 2 }, content: text("Agenda") },
          { type: "paragraph", content: text("Look at last quarter, then agree on what comes next. https://example.com/a/very/long/link/that/must/wrap/somewhere/on/a/phone") },
          { type: "codeBlock", props: { language: "typescript" }, content: text('const total = items.reduce((sum, item) => sum + item.price * item.quantity, 0);\nconsole.log("total", total);') },
          { type: "bulletListItem", content: text("Budget") },
          { type: "checkListItem", props: { checked: true }, content: text("Book the room") },
          { type: "quote", content: text("Plans are worthless, but planning is everything.") },
          { type: "paragraph", content: text(ARABIC) },
          {
            type: "table",
            content: {
              type: "tableContent",
              rows: [
                { cells: [text("Option"), text("Assessment"), text("Owner")] },
                { cells: [text("Contemporary furniture"), text("Considerably more comfortable, unquestionably more expensive"), text("Procurement")] },
              ],
            },
          },
          // Columns widened in the editor: wider than a phone's or a tablet's page.
          {
            type: "table",
            content: {
              type: "tableContent",
              columnWidths: [180, 180, 180, 180],
              rows: [
                { cells: [text("Day"), text("Plan"), text("Notes"), text("Cost")] },
                { cells: [text("Mon"), text("Alfama walk"), text("Tram 28 early"), text("12 €")] },
              ],
            },
          },
        ];
        for (let i = 1; i <= 3; i += 1) {
          const body = [{ type: "paragraph", content: text(`Short note ${i} with a line of text.`) }];
          // One written by an agent: the list marks it.
          const author = i === 2 ? ({ kind: "api", email: account!.email } as const) : undefined;
          await createNote(db, { userId, author, input: { title: `Note ${i}`, content: body, contentText: contentToText(body) } });
        }
        // Pinned: the notes and search pages show their Pinned group, the note its pressed Pin.
        const { note } = await createNote(db, { userId, input: { title: LONG_TITLE, content, contentText: contentToText(content), tagIds: [tag.id, longTag.id], pinned: true } });
        noteId = note.id;
      },
    });
    const { context, page } = await stack.newPage();
    await stack.signIn(page, person);
    signedIn = await context.storageState();
    await context.close();
  });
  afterAll(() => stack?.stop());

  /** A signed-in page with these options, closed after `fn`. */
  async function withPage(options: Omit<BrowserContextOptions, "baseURL" | "storageState">, fn: (page: Page) => Promise<void>) {
    const context = await stack.browser.newContext({ ...options, baseURL: stack.app.url, storageState: signedIn });
    try {
      await fn(await context.newPage());
    } finally {
      await context.close();
    }
  }

  const heading = (name: string | RegExp) => async (page: Page) => {
    await page.getByRole("heading", { name, level: 1 }).first().waitFor();
  };
  /** A note open, and at desktop widths the list beside it loaded, so both are checked. */
  const noteShown = async (page: Page) => {
    await editorBody(page).locator('[data-content-type="codeBlock"]').waitFor();
    if (page.viewportSize()!.width >= 1024) await page.locator("[data-pane-row]").first().waitFor();
  };
  const targets: Target[] = [
    { name: "landing", path: "/", signedIn: false, ready: heading(/notes/i) },
    { name: "sign-in", path: "/sign-in", signedIn: false, ready: heading("Sign in"), edgesOnly: true },
    { name: "sign-up", path: "/sign-up", signedIn: false, ready: heading(/account/i), edgesOnly: true },
    { name: "forgot-password", path: "/forgot-password", signedIn: false, ready: heading(/password/i), edgesOnly: true },
    { name: "check-email", path: "/check-email?email=someone.with.a.really.long.address%40a-long-domain-name.example.com", signedIn: false, ready: heading("Check your email"), edgesOnly: true },
    { name: "verify-email-bad-link", path: "/verify-email?token=not-a-token", signedIn: false, ready: heading(/./), edgesOnly: true },
    {
      name: "notes",
      path: "/notes",
      signedIn: true,
      ready: async (page) => {
        await page.locator("[data-note-row]").first().waitFor();
      },
    },
    {
      name: "search",
      path: "/notes?q=quarter",
      signedIn: true,
      ready: async (page) => {
        await page.locator("[data-note-row] mark").first().waitFor();
      },
    },
    {
      name: "note",
      path: "",
      signedIn: true,
      ready: noteShown,
    },
    {
      name: "history",
      path: "",
      signedIn: true,
      ready: async (page) => {
        await noteShown(page);
        await page.getByRole("button", { name: "History of this note" }).click();
        await page.getByRole("dialog", { name: "History" }).getByRole("button", { name: /System/ }).first().click();
        await page.getByText("This version is the same as the note now.").waitFor();
      },
    },
    // Menus and dialogs open: what they show is checked too.
    {
      name: "account-menu",
      edgesOnly: true,
      path: "/notes",
      signedIn: true,
      ready: async (page) => {
        await page.locator("summary.avatar").click();
        await page.getByRole("button", { name: "Sign out" }).waitFor();
      },
    },
    {
      name: "shortcuts-dialog",
      edgesOnly: true,
      path: "/notes",
      signedIn: true,
      ready: async (page) => {
        await page.locator("[data-note-row]").first().waitFor();
        await pressShortcut(page, "?");
        await page.locator("dialog[open]").waitFor();
      },
    },
    {
      name: "tag-picker",
      edgesOnly: true,
      path: "",
      signedIn: true,
      ready: async (page) => {
        await noteShown(page);
        await page.getByRole("button", { name: "Tags", exact: true }).click();
        await page.getByRole("combobox", { name: "Find or create a tag" }).waitFor();
      },
    },
    {
      name: "delete-dialog",
      edgesOnly: true,
      path: "",
      signedIn: true,
      ready: async (page) => {
        await noteShown(page);
        await page.locator(".editor-bar").getByRole("button", { name: /Delete/ }).click();
        await page.locator("dialog[open]").waitFor();
      },
    },
    { name: "tags", path: "/tags", signedIn: true, ready: heading("Tags") },
    { name: "trash", path: "/trash", signedIn: true, ready: heading("Trash") },
    { name: "account", path: "/account", signedIn: true, ready: heading("Account") },
    { name: "connect", path: "/connect", signedIn: true, ready: heading("Connect an agent") },
    { name: "missing-note", path: "/notes/00000000-0000-4000-8000-000000000000", signedIn: true, ready: heading("This note does not exist"), edgesOnly: true },
  ];

  // One context per signed-in state, shared by every page's test.
  const contexts = new Map<boolean, Promise<BrowserContext>>();
  const contextFor = (signedInState: boolean) => {
    let context = contexts.get(signedInState);
    if (!context) {
      context = stack.browser.newContext({ baseURL: stack.app.url, reducedMotion: "reduce", storageState: signedInState ? signedIn : undefined });
      contexts.set(signedInState, context);
    }
    return context;
  };
  afterAll(async () => {
    for (const context of contexts.values()) await (await context).close();
  });

  // One test per page: it is loaded once, at the widest window, then the window narrows and the scheme
  // changes under it, as a person's would (the page follows both as they change).
  for (const target of targets) {
    const sizes = [...WIDTHS].reverse().filter((size) => !(target.edgesOnly && size.name === "tablet"));
    it(`${target.name}: at ${sizes.map((size) => size.width).join(", ")} px, light and dark, no serious or critical axe violation and no sideways scroll`, async () => {
      const problems: string[] = [];
      const page = await (await contextFor(target.signedIn)).newPage();
      try {
        page.setDefaultTimeout(15_000);
        await page.setViewportSize({ width: sizes[0]!.width, height: sizes[0]!.height });
        await page.goto(target.path || `/notes/${noteId}`);
        await target.ready(page);
        for (const size of sizes) {
          for (const scheme of SCHEMES) {
            await page.setViewportSize({ width: size.width, height: size.height });
            await page.emulateMedia({ colorScheme: scheme });
            // Laid out and painted again for this window and scheme.
            await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
            const where = `${size.name} (${size.width} px), ${scheme}`;
            for (const problem of await layoutProblems(page)) problems.push(`${where}: ${problem}`);
            await screenshot(page, `layout/${target.name}-${size.name}-${scheme}`, { fullPage: true });
          }
        }
      } finally {
        await page.close();
      }
      expect(problems).toEqual([]);
    });
  }

  it("the notes list keeps a long title on one line, ellipsised, with its time in view", async () => {
    await withPage({ viewport: { width: 360, height: 740 } }, async (page) => {
      await page.goto("/notes");
      const row = page.locator("[data-note-row]").filter({ hasText: "quarterly planning" });
      const box = await row.boundingBox();
      const title = await row.locator(".note-title").evaluate((element) => ({ clipped: element.scrollWidth > element.clientWidth, ellipsis: getComputedStyle(element).textOverflow }));
      expect(title).toEqual({ clipped: true, ellipsis: "ellipsis" });
      const time = await row.locator(".note-time").boundingBox();
      expect(time).not.toBeNull();
      expect(time!.x + time!.width).toBeLessThanOrEqual(box!.x + box!.width);
      expect(box!.x + box!.width).toBeLessThanOrEqual(360);
      expect(await row.locator(".note-time").isVisible()).toBe(true);
    });
  });

  it("table cells wrap between words (on a phone the table fits the page), a right-to-left block reads from the right, a long tag stays inside its row", async () => {
    for (const size of WIDTHS) {
      await withPage({ viewport: { width: size.width, height: size.height } }, async (page) => {
        await page.goto(`/notes/${noteId}`);
        const body = editorBody(page);
        await body.locator('[data-content-type="table"] td').first().waitFor();
        // Each word of every cell on one line: a word split between two lines has two boxes.
        // The first table, whose columns have no width set.
        const split = await body.locator('[data-content-type="table"]').first().evaluate((table) => {
          const broken: string[] = [];
          for (const cell of table.querySelectorAll("td, th")) {
            const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
            for (let node = walker.nextNode(); node; node = walker.nextNode()) {
              for (const match of node.textContent!.matchAll(/\S+/g)) {
                const range = document.createRange();
                range.setStart(node, match.index);
                range.setEnd(node, match.index + match[0].length);
                const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
                if (lines.size > 1) broken.push(match[0]);
              }
            }
          }
          return broken;
        });
        // On a phone three columns cannot each hold their longest word: words break there, and the table fits the page rather than scrolling.
        if (size.name === "phone") {
          const wrapper = await body.locator(".tableWrapper").first().evaluate((element) => ({ scroll: element.scrollWidth, client: element.clientWidth }));
          expect(wrapper.scroll, "phone: the table fits its frame").toBeLessThanOrEqual(wrapper.client);
        } else {
          expect(split, `${size.name}: words split inside table cells`).toEqual([]);
        }

        // The Arabic paragraph starts at the block's right edge: its first word is there, not at the left.
        const arabic = await body.locator(".bn-inline-content", { hasText: ARABIC.slice(0, 10) }).evaluate((element) => {
          const text = element.firstChild!.firstChild ?? element.firstChild!;
          const range = document.createRange();
          range.setStart(text, 0);
          range.setEnd(text, 8);
          const first = range.getBoundingClientRect();
          // The block's box: the text's own element may be only as wide as its text.
          const box = element.closest(".bn-block-content")!.getBoundingClientRect();
          return { rightGap: box.right - first.right, onRightHalf: first.left > box.left + box.width / 2 };
        });
        expect(arabic.rightGap, `${size.name}: right-to-left text against the right edge`).toBeLessThan(2);
        expect(arabic.onRightHalf).toBe(true);

        // The title is the note's largest text at every width: no heading in the body outgrows it.
        const sizes = await page.evaluate(() => {
          const size = (element: Element) => parseFloat(getComputedStyle(element).fontSize);
          return {
            title: size(document.querySelector("#note-title")!),
            headings: [...document.querySelectorAll('.bn-editor [data-content-type="heading"] .bn-inline-content')].map(size),
          };
        });
        expect(sizes.headings.length).toBeGreaterThan(1);
        expect(Math.max(...sizes.headings), `${size.name}: the largest heading against the title`).toBeLessThan(sizes.title);

        // Below desktop widths every table fits the page, columns widened in the editor too: nothing scrolls sideways out of the keyboard's reach.
        if (size.width < 1024) {
          const frames = await body.locator(".tableWrapper").evaluateAll((elements) => elements.map((element) => element.scrollWidth - element.clientWidth));
          expect(frames, `${size.name}: tables fit`).toEqual(frames.map(() => 0));
        }

        // The long tag in the note's picker stays inside the page, cut with an ellipsis, whole in its title.
        const tag = page.locator(".tag-picker .tag", { hasText: LONG_TAG.slice(0, 12) });
        const tagBox = await tag.boundingBox();
        expect(tagBox!.x + tagBox!.width).toBeLessThanOrEqual(size.width);
        expect(await tag.getAttribute("title")).toBe(LONG_TAG);
        await screenshot(page, `layout/reading-${size.name}`, { fullPage: true });

        await page.goto("/notes");
        const row = page.locator("[data-note-row]").filter({ hasText: "quarterly planning" });
        const rowTag = row.locator(".tag", { hasText: LONG_TAG.slice(0, 12) });
        // A box is read as the page is: wait for the list's row first.
        await rowTag.waitFor();
        const rowBox = await row.boundingBox();
        const rowTagBox = await rowTag.boundingBox();
        expect(rowTagBox!.x + rowTagBox!.width).toBeLessThanOrEqual(rowBox!.x + rowBox!.width);
        const chip = page.getByRole("navigation", { name: "Filter by tag" }).getByRole("link", { name: new RegExp(LONG_TAG.slice(0, 12)) });
        await chip.waitFor();
        const chipBox = await chip.boundingBox();
        expect(chipBox!.x + chipBox!.width).toBeLessThanOrEqual(size.width);
        await screenshot(page, `layout/reading-list-${size.name}`, { fullPage: true });
      });
    }
  });

  it("the title field wraps a long title, grows with it, and Enter moves to the body", async () => {
    await withPage({ viewport: { width: 360, height: 740 } }, async (page) => {
      await page.goto(`/notes/${noteId}`);
      await editorBody(page).waitFor();
      const title = page.locator("#note-title");
      expect(await title.evaluate((element) => element.tagName)).toBe("TEXTAREA");
      expect(await title.inputValue()).toBe(LONG_TITLE);
      // Every line shows: the field is as tall as its text, nothing is clipped or scrolled.
      const fits = await title.evaluate((element) => ({ lines: element.scrollHeight > 2 * parseFloat(getComputedStyle(element).lineHeight), scrolls: element.scrollHeight > element.clientHeight + 1 }));
      expect(fits).toEqual({ lines: true, scrolls: false });
      await title.focus();
      await page.keyboard.press("Enter");
      await expect.poll(() => page.evaluate(() => document.activeElement?.classList.contains("bn-editor") ?? false)).toBe(true);
      expect(await title.inputValue()).toBe(LONG_TITLE);
    });
  });

  it("the editor's formatting toolbar: every button named, nothing serious for axe", async () => {
    for (const scheme of SCHEMES) {
      await withPage({ viewport: { width: 1280, height: 860 }, colorScheme: scheme }, async (page) => {
        await page.goto(`/notes/${noteId}`);
        const paragraph = editorBody(page).locator('[data-content-type="paragraph"]').first();
        await paragraph.click();
        await page.keyboard.press("Home");
        await page.keyboard.press("Shift+End");
        const toolbar = page.locator(".bn-formatting-toolbar");
        await toolbar.waitFor();
        const unnamed = await toolbar.locator("button").evaluateAll((buttons) =>
          buttons.filter((button) => !(button.getAttribute("aria-label") || button.textContent?.trim() || button.getAttribute("title"))).map((button) => button.outerHTML.slice(0, 120)),
        );
        expect(unnamed).toEqual([]);
        expect(await seriousAxeFindings(page, { include: ".bn-formatting-toolbar" })).toEqual([]);
        await screenshot(page, `layout/formatting-toolbar-${scheme}`);
      });
    }
  });

  it("the slash menu: a named list of options the editor points at, nothing serious for axe", async () => {
    for (const scheme of SCHEMES) {
      await withPage({ viewport: { width: 1280, height: 860 }, colorScheme: scheme }, async (page) => {
        await page.goto(`/notes/${noteId}`);
        const paragraph = editorBody(page).locator('[data-content-type="paragraph"]').last();
        await paragraph.click();
        await page.keyboard.press("End");
        await page.keyboard.press("Enter");
        await page.keyboard.type("/");
        const menu = page.getByRole("listbox", { name: "Blocks" });
        await menu.waitFor();
        expect(await menu.getByRole("option").count()).toBeGreaterThan(10);
        // The editor names the list and its active option; aria-expanded, which a text box may not carry, it does not.
        const editor = editorBody(page);
        expect(await editor.getAttribute("aria-controls")).toBe(await menu.getAttribute("id"));
        const active = await editor.getAttribute("aria-activedescendant");
        expect(await menu.locator(`[id="${active}"]`).getAttribute("role")).toBe("option");
        expect(await editor.getAttribute("aria-expanded")).toBeNull();
        expect(await seriousAxeFindings(page)).toEqual([]);
        await screenshot(page, `layout/slash-menu-${scheme}`);
        await page.keyboard.press("Escape");
      });
    }
  });

  it("every control of the notes list and the header is reached with Tab, each with a visible focus ring", async () => {
    await withPage({ viewport: { width: 1280, height: 860 } }, async (page) => {
      await page.goto("/notes");
      await page.locator("[data-note-row]").first().waitFor();
      const reached = await tabThrough(page, 40);
      const names = reached.map((item) => item.name);
      for (const expected of ["Skip to content", "Notes", "Tags", "Connect an agent", "New note", "Search notes"]) {
        expect(names.some((name) => name.startsWith(expected)), `${expected} in ${names.join(" | ")}`).toBe(true);
      }
      expect(names.some((name) => name.startsWith("A very long note title"))).toBe(true);
      expect(reached.filter((item) => !item.visible)).toEqual([]);
    });
  });

  it("at 1,280 px the list beside a note comes first with Tab (search, tag filter, each note), then every control of the note, each with a visible focus ring", async () => {
    await withPage({ viewport: { width: 1280, height: 860 } }, async (page) => {
      await page.goto(`/notes/${noteId}`);
      await noteShown(page);
      const reached = await tabThrough(page, 40, "Note body");
      const names = reached.map((item) => item.name);
      const at = (expected: string) => names.findIndex((name) => name.startsWith(expected));
      for (const expected of ["Search notes", "Filter by tag", "Note 1", "Note 2", "Note 3", "Pin note", "Title", "Tags", "Note body"]) {
        expect(at(expected), `${expected} in ${names.join(" | ")}`).toBeGreaterThanOrEqual(0);
      }
      // The list, then the note: as they stand on the screen, left to right.
      expect(at("Note 1")).toBeLessThan(at("Pin note"));
      expect(reached.filter((item) => !item.visible && item.name !== "Note body")).toEqual([]);
    });
  });

  it("every control of a note is reached with Tab, each with a visible focus ring", async () => {
    await withPage({ viewport: { width: 360, height: 740 } }, async (page) => {
      await page.goto(`/notes/${noteId}`);
      await editorBody(page).waitFor();
      const reached = await tabThrough(page, 20, "Note body");
      const names = reached.map((item) => item.name);
      for (const expected of ["Skip to content", "Notes", "Pin note", "History of this note", "Delete note", "Title", "Remove tag planning", "Tags", "Note body"]) {
        expect(names.some((name) => name.startsWith(expected)), `${expected} in ${names.join(" | ")}`).toBe(true);
      }
      // The body shows its focus with the caret, as any text field does.
      expect(reached.filter((item) => !item.visible && item.name !== "Note body")).toEqual([]);
    });
  });
});

/**
 * Presses Tab up to `max` times (or until the control named `until`): each
 * control reached, by its accessible name (its aria-label, its label, its
 * text), and whether it shows a focus ring.
 */
async function tabThrough(page: Page, max: number, until?: string): Promise<{ name: string; visible: boolean }[]> {
  const reached: { name: string; visible: boolean }[] = [];
  for (let i = 0; i < max; i += 1) {
    await page.keyboard.press("Tab");
    const focused = await page.evaluate(() => {
      const element = document.activeElement as HTMLElement | null;
      if (!element || element === document.body) return null;
      const style = getComputedStyle(element);
      const ring = (style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== "none";
      const label = (element instanceof HTMLInputElement ? element.labels?.[0]?.textContent : null) ?? (element.id ? document.querySelector(`label[for="${element.id}"]`)?.textContent : null);
      return { name: (element.getAttribute("aria-label") || label || element.textContent || element.id || element.tagName).trim().replace(/\s+/g, " ").slice(0, 60), visible: ring };
    });
    if (!focused) break;
    reached.push(focused);
    if (focused.name === until) break;
  }
  return reached;
}

/** Sideways scroll, text past its card's edge, and axe's serious or critical findings on the page as it is shown now. */
async function layoutProblems(page: Page): Promise<string[]> {
  const problems: string[] = [];
  const overflow = await page.evaluate(() => {
    const scroller = document.scrollingElement ?? document.documentElement;
    return { scrollWidth: scroller.scrollWidth, innerWidth: window.innerWidth };
  });
  if (overflow.scrollWidth > overflow.innerWidth) problems.push(`${overflow.scrollWidth} px wide in a ${overflow.innerWidth} px window`);
  // Text running past its card's edge (clipped or not) is cut off for the reader too.
  const spilled = await page.evaluate(() =>
    [...document.querySelectorAll(".auth-card, .card, .note-list, .callout, .alert, .banner")]
      .filter((box) => box.scrollWidth > box.clientWidth + 1 && getComputedStyle(box).overflowX !== "auto")
      .map((box) => `${box.className} (${box.scrollWidth} px of content in ${box.clientWidth} px)`),
  );
  for (const box of spilled) problems.push(`content wider than .${box}`);

  problems.push(...(await seriousAxeFindings(page)));
  return problems;
}
