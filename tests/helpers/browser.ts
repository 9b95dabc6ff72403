import { randomBytes } from "node:crypto";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from "playwright-core";
import { expect } from "vitest";
import type { Db } from "@/lib/db/client";
import { listOutboxMessages, type OutboxMessage } from "@/lib/mail/outbox";
import { createUser } from "@/lib/users/mutations";
import { makeTempDir, waitFor } from "@/scripts/lib/processes";
import { apiClient } from "./api-client";
import { startFakeIdentity, type FakeIdentity } from "./fake-identity";
import { ROOT, startTestApp, type TestApp } from "./test-app";
import { chromiumExecutable } from "./system";
import { createTestDatabase, type TestDatabase } from "./test-db";

/** Headless, with nothing running in the background. */
const CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"];

const SCREENSHOT_DIR = path.join(ROOT, "test-results", "screenshots");

type Account = { id: string; email: string; password: string };

export type BrowserStack = {
  app: TestApp;
  identity: FakeIdentity;
  database: TestDatabase;
  browser: Browser;
  /** Where the app's outbox writes account emails. */
  outboxDir: string;
  api: ReturnType<typeof apiClient>;
  accounts: Account[];
  /** A fresh browser context (cookies of its own) and a page in it. */
  newPage(options?: BrowserContextOptions): Promise<{ context: BrowserContext; page: Page }>;
  /** Signs in through the sign-in form and waits for the notes list. */
  signIn(page: Page, account: { email: string; password: string }): Promise<void>;
  /** Messages in the outbox, newest first. */
  outbox(): Promise<OutboxMessage[]>;
  /** The newest message to `to` whose subject matches, waiting for it to arrive. */
  waitForMail(to: string, subject: RegExp): Promise<OutboxMessage>;
  /** An agent's session token for this email, from the fake identity service. */
  tokenFor(email: string): string;
  stop(): Promise<void>;
};

export type BrowserStackOptions = {
  /** Verified accounts with passwords, created the way `npm run users -- add` does. */
  accounts?: { email: string; password: string }[];
  /** Extra seeding through the data layer, before the app starts. */
  seed?: (db: Db, accounts: Account[]) => Promise<void>;
  env?: Record<string, string>;
};

/** Chromium as the browser tests run it (the system's, else the bundled one). */
export async function launchChromium(): Promise<Browser> {
  const { path: executablePath } = await chromiumExecutable();
  return chromium.launch({ executablePath, args: CHROMIUM_ARGS });
}

/**
 * The production app on a fresh PostgreSQL database (the engine of the
 * embedded database every self-hoster runs) with a fake identity service,
 * mail going to a temporary outbox, and a headless Chromium.
 */
export async function startBrowserStack(options: BrowserStackOptions = {}): Promise<BrowserStack> {
  const identity = await startFakeIdentity();
  const database = await createTestDatabase("postgres");
  const outboxTemp = await makeTempDir("notes-outbox-");
  const outboxDir = outboxTemp.dir;
  const accounts = await database.withDb(async (db) => {
    const created: Account[] = [];
    for (const account of options.accounts ?? []) {
      const user = await createUser(db, { email: account.email, password: account.password });
      created.push({ id: user.id, email: user.email, password: account.password });
    }
    await options.seed?.(db, created);
    return created;
  });
  const app = await startTestApp({
    DATABASE_URL: database.url,
    IDENTITY_API_URL: identity.url,
    IDENTITY_PARTNER_KEY: identity.partnerKey,
    BETTER_AUTH_SECRET: randomBytes(32).toString("base64"),
    OUTBOX_ENABLED: "1",
    OUTBOX_DIR: outboxDir,
    ...options.env,
  });
  const browser = await launchChromium();

  const messages = () => listOutboxMessages(outboxDir);
  return {
    app,
    identity,
    database,
    browser,
    outboxDir,
    api: apiClient(app.url),
    accounts,
    async newPage(contextOptions) {
      const context = await browser.newContext({ baseURL: app.url, viewport: { width: 1280, height: 860 }, ...contextOptions });
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      return { context, page };
    },
    async signIn(page, account) {
      await page.goto("/sign-in");
      await page.getByLabel("Email").fill(account.email);
      await page.getByLabel("Password", { exact: true }).fill(account.password);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.waitForURL(/\/notes(\?|$)/);
    },
    outbox: messages,
    waitForMail: (to, subject) =>
      waitFor(async () => (await messages()).find((message) => message.to === to && subject.test(message.subject)), {
        timeoutMs: 10_000,
        intervalMs: 100,
        message: `mail to ${to} matching ${subject}`,
      }),
    tokenFor: (email) => identity.tokenFor(email),
    async stop() {
      await browser.close().catch(() => {});
      await app.stop();
      await identity.close();
      await database.drop();
      await outboxTemp.remove();
    },
  };
}

/**
 * With SCREENSHOTS=1, saves a screenshot under test-results/screenshots
 * (git-ignored) for people to look at; otherwise does nothing (a full-page
 * screenshot costs a loaded machine about half a second).
 */
export async function screenshot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  if (!process.env.SCREENSHOTS) return;
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await mkdir(path.dirname(file), { recursive: true });
  await page.screenshot({ path: file, fullPage: options.fullPage ?? false });
}

/** Presses an app-wide shortcut once the page has hydrated and listens for it (a key pressed before that does nothing). */
export async function pressShortcut(page: Page, key: string): Promise<void> {
  await page.locator("html[data-shortcuts=ready]").waitFor({ state: "attached" });
  await page.keyboard.press(key);
}

/** The note editor's editable body. */
export function editorBody(page: Page) {
  return page.locator('.bn-editor[contenteditable="true"]');
}

/** Waits until the editor says everything is saved. */
export async function waitForSaved(page: Page, timeout = 15_000): Promise<void> {
  await expect.poll(() => page.getByTestId("save-status").textContent(), { timeout }).toBe("Saved");
}

/** The id in a /notes/<id> URL. */
export function noteIdFromUrl(url: string): string {
  const match = /\/notes\/([0-9a-f-]{36})/.exec(url);
  if (!match) throw new Error(`Not a note URL: ${url}`);
  return match[1]!;
}
