import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { editorBody, screenshot, startBrowserStack, waitForSaved, type BrowserStack } from "@/tests/helpers/browser";
import { openNewNote, storedNote, allBlocks } from "@/tests/helpers/editor";
import { solidPng } from "@/tests/helpers/images";

/** Pastes a file into the editor as a screenshot tool puts one on the clipboard (a PNG unless `type` says otherwise). */
async function pastePng(page: Page, png: Buffer, name: string, type = "image/png"): Promise<void> {
  await page.evaluate(
    ({ base64, name, type }) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes], name, { type }));
      document.querySelector(".bn-editor")!.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
    },
    { base64: png.toString("base64"), name, type },
  );
}

const loadedImage = (page: Page) =>
  page.waitForFunction(() => {
    const image = document.querySelector<HTMLImageElement>('.bn-editor img[src*="/api/attachments/"]');
    return image !== null && image.complete && image.naturalWidth > 0 ? image.getAttribute("src") : false;
  });

describe("images in notes: pasted, stored by the app, shown only to their owner", () => {
  let stack: BrowserStack;
  const person = { email: "ada@example.com", password: "ada-password" };
  const other = { email: "bob@example.com", password: "bob-password" };

  beforeAll(async () => {
    stack = await startBrowserStack({ accounts: [person, other] });
  });
  afterAll(() => stack?.stop());

  it("a pasted screenshot is uploaded, shown, saved, still there after a reload; its URL is a 404 to another account", async () => {
    const { page } = await stack.newPage();
    await stack.signIn(page, person);
    const id = await openNewNote(stack, page, person.email, { title: "Bug report", contentText: "The button is red:" });
    await editorBody(page).locator('[data-content-type="paragraph"]').first().click();
    await page.keyboard.press("End");
    const png = solidPng(120, 80, [220, 30, 30]);
    await pastePng(page, png, "screenshot.png");

    const src = (await (await loadedImage(page)).jsonValue()) as string;
    expect(src).toMatch(/^\/api\/attachments\/[0-9a-f-]{36}$/);
    await waitForSaved(page);
    await screenshot(page, "attachment-pasted");
    const stored = await storedNote(stack, person.email, id);
    expect(allBlocks(stored.content).find((block) => block.type === "image")?.props).toMatchObject({ url: src });
    // Search finds the file by its name; the list's preview shows only what was written.
    expect(stored.contentText).toContain("screenshot.png");
    await page.goto("/notes");
    const preview = page.locator("[data-note-row]", { hasText: "Bug report" }).locator(".note-excerpt");
    await expect.poll(() => preview.innerText()).toBe("The button is red:");

    // Opened again from its address, as a reload opens it.
    await page.goto(`/notes/${id}`);
    expect((await (await loadedImage(page)).jsonValue()) as string).toBe(src);

    // The owner's agent fetches it with its token; another account cannot, by token or by browser session.
    const mine = await fetch(`${stack.app.url}${src}`, { headers: { "x-session-token": stack.tokenFor(person.email) } });
    expect(Buffer.from(await mine.arrayBuffer()).equals(png)).toBe(true);
    const theirs = await fetch(`${stack.app.url}${src}`, { headers: { "x-session-token": stack.tokenFor(other.email) } });
    expect(theirs.status).toBe(404);
    const { page: otherPage } = await stack.newPage();
    await stack.signIn(otherPage, other);
    expect((await otherPage.request.get(src)).status()).toBe(404);
    // And the owner's browser session, without any token, gets it.
    expect((await page.request.get(src)).status()).toBe(200);
  });

  it("a file the app refuses is not added, the person is told why, and what they typed stays", async () => {
    const { page } = await stack.newPage();
    await stack.signIn(page, person);
    const id = await openNewNote(stack, page, person.email, { title: "Refused", contentText: "Before the paste." });
    await editorBody(page).locator('[data-content-type="paragraph"]').first().click();
    await page.keyboard.press("End");
    await page.keyboard.type(" Typed before.");
    await pastePng(page, Buffer.from("<html>not an image</html>"), "fake.png");
    const alert = page.getByTestId("upload-failure");
    await alert.waitFor();
    expect(await alert.innerText()).toContain("The file's bytes are not image/png (not an image)");
    // No empty image block is left behind.
    await expect.poll(() => editorBody(page).locator('[data-content-type="image"]').count()).toBe(0);
    await screenshot(page, "attachment-refused");
    await waitForSaved(page);
    const stored = await storedNote(stack, person.email, id);
    expect(stored.contentText).toContain("Before the paste. Typed before.");
    expect(allBlocks(stored.content).map((block) => block.type)).not.toContain("image");
    await alert.getByRole("button", { name: "Dismiss" }).click();
    await alert.waitFor({ state: "detached" });
  });
});
