import type { Page } from "playwright-core";
import { expect } from "vitest";
import { editorBody, type BrowserStack } from "./browser";

export type StoredBlock = { type: string; props?: Record<string, unknown>; content?: unknown; children?: StoredBlock[] };

/** Creates a note through the API as `email` and opens it in the editor. */
export async function openNewNote(stack: BrowserStack, page: Page, email: string, json: Record<string, unknown>): Promise<string> {
  const created = await stack.api("/api/notes", { method: "POST", token: stack.tokenFor(email), json });
  expect(created.status, created.text).toBe(201);
  const id: string = created.body.note.id;
  await page.goto(`/notes/${id}`);
  await editorBody(page).waitFor();
  return id;
}

/** The note as an agent reads it through the API. */
export async function storedNote(stack: BrowserStack, email: string, id: string) {
  const res = await stack.api(`/api/notes/${id}`, { token: stack.tokenFor(email) });
  expect(res.status, res.text).toBe(200);
  return res.body.note as { title: string; content: StoredBlock[]; contentText: string };
}

/** Every block of a stored body, nested ones included. */
export function allBlocks(blocks: StoredBlock[]): StoredBlock[] {
  return blocks.flatMap((block) => [block, ...allBlocks(block.children ?? [])]);
}

/** An item of the open slash menu, by its exact title. */
function slashMenuItem(page: Page, title: string) {
  return page.locator(".bn-suggestion-menu-item").filter({ has: page.locator(".bn-mt-suggestion-menu-item-title").getByText(title, { exact: true }) });
}

/** Types "/" where the cursor is and returns the titles the menu offers. */
export async function openSlashMenu(page: Page): Promise<string[]> {
  await page.keyboard.type("/");
  await page.locator(".bn-suggestion-menu-item").first().waitFor();
  return page.locator(".bn-suggestion-menu-item .bn-mt-suggestion-menu-item-title").allInnerTexts();
}

/**
 * Opens the slash menu at the cursor, narrows it by typing the item's title
 * and picks the item with the mouse, as a person does; the menu is gone after.
 */
export async function pickFromSlashMenu(page: Page, title: string): Promise<void> {
  await openSlashMenu(page);
  await page.keyboard.type(title);
  await slashMenuItem(page, title).click();
  await expect.poll(() => page.locator(".bn-suggestion-menu-item").count()).toBe(0);
}

/**
 * Puts the cursor below everything, as a click under the last block does:
 * into the empty last paragraph, or, when the body ends with another block (a
 * table, say), into the new paragraph BlockNote's trailing area makes.
 */
export async function clickBelowLastBlock(page: Page): Promise<void> {
  const trailing = editorBody(page).locator(".bn-trailing-block");
  if ((await trailing.count()) > 0) {
    await trailing.click();
    return;
  }
  await editorBody(page).locator('[data-content-type="paragraph"]').last().click();
  await page.keyboard.press("End");
}
