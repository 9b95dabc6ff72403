import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { editorBody, noteIdFromUrl, pressShortcut, screenshot, startBrowserStack, waitForSaved, type BrowserStack } from "@/tests/helpers/browser";

// A person's day with the notes app, in a real browser against the production
// build: write, find, tag, share the notes with an agent, delete.
describe("notes in the browser", () => {
  let stack: BrowserStack;
  let context: BrowserContext;
  let page: Page;
  let noteId: string;
  const person = { email: "grace@example.com", password: "grace-password" };
  const token = () => stack.tokenFor(person.email);

  beforeAll(async () => {
    stack = await startBrowserStack({ accounts: [person] });
    ({ context, page } = await stack.newPage());
    await stack.signIn(page, person);
  });
  afterAll(() => stack?.stop());

  it("starts empty, saying what to do; the home page leads a signed-in person to the notes", async () => {
    await page.goto("/");
    await page.waitForURL(/\/notes$/);
    await expect.poll(() => page.getByRole("heading", { name: "No notes yet" }).count()).toBe(1);
    expect(await page.getByText("Press N anytime for a new note").count()).toBe(1);
    await screenshot(page, "notes-empty");
  });

  it("N makes a note; a heading, a list and a paragraph save by themselves and survive a reload", async () => {
    await pressShortcut(page, "n");
    await page.waitForURL(/\/notes\/[0-9a-f-]{36}\?new=1$/);
    noteId = noteIdFromUrl(page.url());
    await editorBody(page).waitFor();
    // A new note starts with its title selected: typing replaces "Untitled".
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("note-title");
    // The empty body's placeholder starts at the left, where typing starts, not at the far edge.
    const empty = await editorBody(page).locator(".bn-block-content").first().evaluate((block) => {
      const inline = block.querySelector(".bn-inline-content")!.getBoundingClientRect();
      const box = block.getBoundingClientRect();
      return { placeholderFrom: inline.right - box.left, width: box.width, placeholder: getComputedStyle(block, "::after").content };
    });
    expect(empty.placeholder, "the placeholder is shown").not.toMatch(/^(none|normal)$/);
    expect(empty.placeholderFrom).toBeLessThan(empty.width / 4);
    await page.keyboard.type("Trip to Lisbon");
    await page.keyboard.press("Enter");
    await page.keyboard.type("# Packing list");
    await page.keyboard.press("Enter");
    await page.keyboard.type("- sunscreen");
    await page.keyboard.press("Enter");
    await page.keyboard.type("linen shirts");
    await page.keyboard.press("Enter");
    await page.keyboard.press("Enter");
    await page.keyboard.type("Remember the azulejo museum tickets.");
    await waitForSaved(page);
    await screenshot(page, "editor");

    await page.reload();
    await editorBody(page).waitFor();
    expect(await page.locator("#note-title").inputValue()).toBe("Trip to Lisbon");
    const body = editorBody(page);
    expect(await body.locator('[data-content-type="heading"]').innerText()).toBe("Packing list");
    expect(await body.locator('[data-content-type="bulletListItem"]').allInnerTexts()).toEqual(["sunscreen", "linen shirts"]);
    expect(await body.locator('[data-content-type="paragraph"]').filter({ hasText: "azulejo" }).innerText()).toBe(
      "Remember the azulejo museum tickets.",
    );
  });

  it("what the person wrote is searchable by their agent through the API", async () => {
    const res = await stack.api("/api/notes?search=azulejo", { token: token() });
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(1);
    const [note] = res.body.notes;
    expect(note.id).toBe(noteId);
    expect(note.title).toBe("Trip to Lisbon");
    expect(note.contentText).toBe("Packing list\nsunscreen\nlinen shirts\nRemember the azulejo museum tickets.");
    expect(note.content.map((block: { type: string }) => block.type).slice(0, 4)).toEqual(["heading", "bulletListItem", "bulletListItem", "paragraph"]);
  });

  it("a note an agent creates through the API appears in the list and opens as text", async () => {
    const created = await stack.api("/api/notes", { method: "POST", token: token(), json: { title: "From my agent", contentText: "Buy oat milk and coffee beans" } });
    expect(created.status).toBe(201);
    await page.goto("/notes");
    const row = page.locator("[data-note-row]").filter({ hasText: "From my agent" });
    await row.waitFor();
    expect(await row.innerText()).toContain("Buy oat milk and coffee beans");
    expect(await page.locator("[data-note-row]").first().innerText()).toContain("From my agent");

    await row.click();
    await page.waitForURL(new RegExp(`/notes/${created.body.note.id}$`));
    expect(await editorBody(page).locator('[data-content-type="paragraph"]').first().innerText()).toBe("Buy oat milk and coffee beans");
  });

  it("finds a note by a word only in its body, as you type, with the query in the URL", async () => {
    await page.goto("/notes");
    await page.locator("[data-note-row]").first().waitFor();
    await pressShortcut(page, "/");
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("note-search");
    await page.keyboard.type("azulejo");
    await page.waitForURL(/\/notes\?q=azulejo$/);
    const rows = page.locator("[data-note-row]");
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().innerText()).toContain("Trip to Lisbon");
    expect(await rows.first().locator("mark").innerText()).toBe("azulejo");
    await screenshot(page, "notes-search");

    // The URL is the search: a reload (or a shared link) shows the same results.
    await page.reload();
    expect(await page.locator("#note-search").inputValue()).toBe("azulejo");
    expect(await page.locator("[data-note-row]").count()).toBe(1);

    // Best match first: a note with the word in its title outranks the newer
    // one with it in the text, matched across case and Greek final sigma, and
    // marked in both; "Newest" gives the list order back.
    await stack.api("/api/notes", { method: "POST", token: token(), json: { title: "ΚΟΣΜΟΣ atlas", contentText: "maps" } });
    await stack.api("/api/notes", { method: "POST", token: token(), json: { title: "Reading", contentText: "a book on the κοσμος" } });
    await page.locator("#note-search").fill("Κοσμος");
    await page.waitForURL(/q=/);
    await expect.poll(() => rows.allInnerTexts()).toEqual([expect.stringContaining("ΚΟΣΜΟΣ atlas"), expect.stringContaining("Reading")]);
    expect(await rows.first().locator(".note-title mark").innerText()).toBe("ΚΟΣΜΟΣ");
    expect(await rows.nth(1).locator(".note-excerpt mark").innerText()).toBe("κοσμος");
    await screenshot(page, "notes-search-ranked");
    await page.getByRole("link", { name: "Newest" }).click();
    await page.waitForURL(/sort=updated/);
    await expect.poll(() => rows.allInnerTexts()).toEqual([expect.stringContaining("Reading"), expect.stringContaining("ΚΟΣΜΟΣ atlas")]);

    await page.locator("#note-search").fill("zebra crossing");
    await page.waitForURL(/q=zebra\+crossing/);
    await expect.poll(() => page.getByRole("heading", { name: /No notes match/ }).count()).toBe(1);
  });

  it("a tag created inline in the editor is applied, and filters the list", async () => {
    await page.goto(`/notes/${noteId}`);
    await editorBody(page).waitFor();
    await page.getByRole("button", { name: "Add tags" }).click();
    await page.keyboard.type("travel");
    await page.getByRole("option", { name: "Create “travel”" }).waitFor();
    await page.keyboard.press("Enter");
    await page.locator(".tag-picker .tag", { hasText: "travel" }).waitFor();
    await page.keyboard.press("Escape");
    await waitForSaved(page);

    const apiView = await stack.api(`/api/notes/${noteId}`, { token: token() });
    expect(apiView.body.note.tags.map((tag: { name: string }) => tag.name)).toEqual(["travel"]);

    await page.goto("/notes");
    await page.getByRole("navigation", { name: "Filter by tag" }).getByRole("link", { name: /^travel/ }).click();
    await page.waitForURL(/\/notes\?tag=[0-9a-f-]{36}$/);
    await expect.poll(() => page.locator("[data-note-row]").count()).toBe(1);
    expect(await page.locator("[data-note-row]").first().innerText()).toContain("Trip to Lisbon");
    await screenshot(page, "notes-list");
  });

  it("Pin, pressed from the keyboard, keeps the note at the top of the list under Pinned, after reloads and newer notes", async () => {
    await page.goto(`/notes/${noteId}`);
    await editorBody(page).waitFor();
    const pin = page.locator(".editor-bar").getByRole("button", { name: "Pin note" });
    expect(await pin.getAttribute("aria-pressed")).toBe("false");
    expect(await pin.innerText()).toContain("Pin");
    await pin.focus();
    await page.keyboard.press("Space");
    await expect.poll(() => pin.getAttribute("aria-pressed")).toBe("true");
    await waitForSaved(page);
    await screenshot(page, "editor-pinned");
    await page.reload();
    await editorBody(page).waitFor();
    expect(await page.locator(".editor-bar").getByRole("button", { name: "Pin note" }).getAttribute("aria-pressed")).toBe("true");

    // An agent's write makes another note the most recently updated: the pinned one stays first.
    const others = (await stack.api("/api/notes?pinned=false", { token: token() })).body.notes;
    expect(others.length).toBeGreaterThan(0);
    expect((await stack.api(`/api/notes/${others[0].id}`, { method: "PATCH", token: token(), json: { title: "From my agent, edited" } })).status).toBe(200);
    expect((await stack.api("/api/notes?pinned=true", { token: token() })).body).toMatchObject({ total: 1, notes: [{ id: noteId, pinned: true }] });

    await page.goto("/notes");
    const pinnedGroup = page.getByRole("region", { name: "Pinned" });
    await pinnedGroup.waitFor();
    expect(await pinnedGroup.locator("[data-note-row]").allInnerTexts()).toEqual([expect.stringContaining("Trip to Lisbon")]);
    expect(await page.locator("[data-note-row]").first().innerText()).toContain("Trip to Lisbon");
    expect(await page.getByRole("region", { name: "Others" }).locator("[data-note-row]").first().innerText()).toContain("From my agent, edited");
    await screenshot(page, "notes-list-pinned");

    // A search keeps the groups: the pinned match first.
    await page.goto("/notes?q=o");
    await page.getByRole("region", { name: "Pinned" }).locator("[data-note-row]").filter({ hasText: "Trip to Lisbon" }).waitFor();
    expect(await page.locator("[data-note-row]").first().innerText()).toContain("Trip to Lisbon");
  });

  it("the list is usable at phone width and in dark mode", async () => {
    const phone = await stack.browser.newContext({ baseURL: stack.app.url, viewport: { width: 390, height: 844 }, colorScheme: "dark", storageState: await context.storageState() });
    const small = await phone.newPage();
    await small.goto("/notes");
    await small.locator("[data-note-row]").first().waitFor();
    const overflow = await small.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(small, "notes-list-phone-dark");
    await small.goto(`/notes/${noteId}`);
    await editorBody(small).waitFor();
    await screenshot(small, "editor-phone-dark");
    await phone.close();
  });

  it("tags page: rename, refuse a duplicate name, delete", async () => {
    await page.goto("/tags");
    await page.getByRole("button", { name: "Rename tag travel" }).click();
    await page.getByLabel("New name for travel").fill("trips");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("trips", { exact: true }).waitFor();

    await page.getByLabel("New tag name").fill("TRIPS");
    await page.getByRole("button", { name: "Add tag" }).click();
    await expect.poll(() => page.locator("#new-tag-error").textContent()).toBe("A tag with this name already exists");
    await screenshot(page, "tags");

    const tags = await stack.api("/api/tags", { token: token() });
    expect(tags.body.tags.map((tag: { name: string }) => tag.name)).toEqual(["trips"]);

    await page.getByRole("button", { name: "Delete tag trips" }).click();
    await page.getByRole("button", { name: "Delete tag", exact: true }).click();
    await page.getByRole("heading", { name: "No tags yet" }).waitFor();
    const note = await stack.api(`/api/notes/${noteId}`, { token: token() });
    expect(note.body.note.tags).toEqual([]);
  });

  it("the connect page tells the person how to give an agent access", async () => {
    await page.goto("/connect");
    const text = await page.locator("main").innerText();
    expect(text).toContain(person.email);
    expect(text).toContain(`npm run identity -- user add ${person.email}`);
    // No key on the command line: the tool asks for it.
    expect(await page.getByLabel("Save the key").textContent()).toBe("npm run agent -- key save");
    expect(text).toContain("TOKEN=$(npm run -s agent -- token)");
    expect(text).toContain(`BASE=${stack.app.url}`);
    expect(text).toContain('curl -s "$BASE/api/notes?search=groceries" -H "x-session-token: $TOKEN"');
    expect(await page.getByRole("link", { name: "/api/openapi.json" }).getAttribute("href")).toBe("/api/openapi.json");
    expect(text).toContain("answers 401");
    // Both ways in: the MCP server's URL first (a client adds it by URL alone), and a client configuration to copy.
    expect(await page.getByLabel("MCP server URL").textContent()).toBe(`${stack.app.url}/api/mcp`);
    expect(text.indexOf("Add Notes to an MCP client by its URL")).toBeLessThan(text.indexOf("1. Get a personal API key"));
    const config = JSON.parse((await page.getByLabel("MCP client configuration (.mcp.json)").textContent())!);
    expect(config).toEqual({ mcpServers: { notes: { type: "http", url: `${stack.app.url}/api/mcp`, headers: { "x-session-token": "${NOTES_TOKEN}" } } } });
    expect(await page.getByLabel("Give the client a token").textContent()).toContain("export NOTES_TOKEN=$(npm run -s agent -- token)");
    // The live merge as it is, not a stop-and-ask.
    expect(text).toContain("merged block by block while you keep typing");
    expect(text).not.toContain("reload their version or keep yours");
    await screenshot(page, "connect", { fullPage: true });
  });

  it("deleting asks first, then the note moves to the trash and is gone for the agent too", async () => {
    await page.goto(`/notes/${noteId}`);
    await editorBody(page).waitFor();
    await page.getByRole("button", { name: "Delete note" }).click();
    await page.getByRole("dialog").getByText("The note moves to the trash").waitFor();
    await page.getByRole("button", { name: "Cancel" }).click();
    expect((await stack.api(`/api/notes/${noteId}`, { token: token() })).status).toBe(200);

    await page.getByRole("button", { name: "Delete note" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete note" }).click();
    await page.waitForURL(/\/notes\?trashed=/);
    const notice = page.getByRole("status").filter({ hasText: "“Trip to Lisbon” moved to the trash." });
    await notice.waitFor();
    await expect.poll(() => page.locator("[data-note-row]").filter({ hasText: "Trip to Lisbon" }).count()).toBe(0);
    expect((await stack.api(`/api/notes/${noteId}`, { token: token() })).status).toBe(404);

    // Undo brings it straight back, then it goes to the trash again.
    await notice.getByRole("button", { name: "Undo" }).click();
    await page.waitForURL(new RegExp(`/notes/${noteId}$`));
    await editorBody(page).waitFor();
    expect((await stack.api(`/api/notes/${noteId}`, { token: token() })).status).toBe(200);
    await page.getByRole("button", { name: "Delete note" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete note" }).click();
    await page.waitForURL(/\/notes\?trashed=/);
    expect((await stack.api(`/api/notes/${noteId}`, { token: token() })).status).toBe(404);
    expect((await stack.api("/api/trash", { token: token() })).body.notes.map((note: { id: string }) => note.id)).toEqual([noteId]);
  });

  it("the Trash page lists it; Restore brings the note back as it was, for the agent too", async () => {
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Trash", exact: true }).click();
    await page.waitForURL(/\/trash$/);
    await page.locator("[data-trash-row]").filter({ hasText: "Trip to Lisbon" }).waitFor();
    await screenshot(page, "trash");
    await page.getByRole("button", { name: "Restore: Trip to Lisbon" }).click();
    await page.waitForURL(new RegExp(`/notes/${noteId}$`));
    await editorBody(page).waitFor();
    await page.reload();
    await editorBody(page).waitFor();
    expect(await page.locator("#note-title").inputValue()).toBe("Trip to Lisbon");
    expect(await editorBody(page).locator('[data-content-type="bulletListItem"]').allInnerTexts()).toEqual(["sunscreen", "linen shirts"]);
    // Pinned before the delete, pinned after the restore.
    expect(await page.getByRole("button", { name: "Pin note" }).getAttribute("aria-pressed")).toBe("true");
    const res = await stack.api("/api/notes?search=azulejo", { token: token() });
    expect(res.body.notes.map((note: { id: string }) => note.id)).toEqual([noteId]);

    await page.goto("/trash");
    await page.getByRole("heading", { name: "The trash is empty" }).waitFor();
  });

  it("titles, snippets and tags in other scripts read in their own direction, in the list and the editor", async () => {
    const title = "خطة الرحلة إلى لشبونة";
    const created = await stack.api("/api/notes", { method: "POST", token: token(), json: { title, contentText: "نحجز الفندق، ثم the flights." } });
    expect(created.status).toBe(201);
    await page.goto("/notes");
    const row = page.locator("[data-note-row]").filter({ hasText: "الرحلة" });
    const direction = (locator: typeof row) => locator.evaluate((element) => getComputedStyle(element).direction);
    expect(await direction(row.locator(".note-title"))).toBe("rtl");
    expect(await direction(row.locator(".note-excerpt"))).toBe("rtl");
    // A left-to-right title beside it stays left to right.
    expect(await direction(page.locator("[data-note-row]").filter({ hasText: "From my agent" }).first().locator(".note-title"))).toBe("ltr");
    await page.goto(`/notes/${created.body.note.id}`);
    const field = page.getByLabel("Title", { exact: true });
    expect(await field.inputValue()).toBe(title);
    expect(await direction(field)).toBe("rtl");
  });

  it("deleting the account names what goes, asks for the email, then nothing of it is left", async () => {
    const { total } = (await stack.api("/api/notes", { token: token() })).body;
    expect(total).toBeGreaterThan(1);
    await page.goto("/account");
    const section = page.getByRole("region", { name: "Delete your account" });
    await section.getByText(`${total} notes`, { exact: true }).waitFor();
    await section.getByText("0 notes in the trash", { exact: true }).waitFor();
    const erase = section.getByRole("button", { name: "Delete my account and everything in it" });
    expect(await erase.isDisabled()).toBe(true);
    await section.getByLabel(`Type ${person.email} to confirm`).fill(person.email.toUpperCase());
    await erase.click();
    await page.waitForURL((url) => !url.pathname.startsWith("/account"));
    const res = await stack.api("/api/notes", { token: token() });
    expect(res.status).toBe(401);
    expect(res.body.error).toMatch(/^User not found/);
    await page.goto("/notes");
    await page.waitForURL(/\/sign-in/);
  });
});
