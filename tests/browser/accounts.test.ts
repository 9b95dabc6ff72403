import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "@/tests/helpers/test-db";
import { startTestApp } from "@/tests/helpers/test-app";
import { screenshot, startBrowserStack, type BrowserStack } from "@/tests/helpers/browser";

// Accounts in the browser: sign-up with a verified email, sign-in, sign-out,
// password reset, accounts made by `npm run users`, and the auth endpoints'
// own protections. Against the production build, as people use it.
describe("browser accounts", () => {
  let stack: BrowserStack;
  const operator = { email: "operator@example.com", password: "cli-password-1" };

  beforeAll(async () => {
    stack = await startBrowserStack({ accounts: [operator] });
  });
  afterAll(() => stack?.stop());

  it("sign up with an email, choose the password on the verification link's page, sign out, sign in", async () => {
    const { page, context } = await stack.newPage();
    const email = "ada@example.com";
    const password = "correct horse battery";

    await page.goto("/");
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toContain("Notes for you and your agents");
    await screenshot(page, "landing");
    await page.getByRole("link", { name: "Sign up" }).click();
    await page.waitForURL(/\/sign-up$/);
    await page.getByLabel("Email").fill(email);
    await page.getByRole("button", { name: "Create account" }).click();
    await page.waitForURL(/\/check-email\?email=/);
    expect(await page.getByText(`We sent a verification link to ${email}`).count()).toBe(1);

    // Until the email is proven, the account serves neither the browser nor agents.
    const beforeVerify = await stack.api("/api/notes", { token: stack.tokenFor(email) });
    expect(beforeVerify.status).toBe(401);

    // The link, from the dev outbox page as a person would open it: it leads to the page where the password is chosen.
    const mail = await stack.waitForMail(email, /Verify your email/);
    expect(mail.links[0]?.url).toContain(`${stack.app.url}/verify-email?token=`);
    await page.goto("/dev/outbox");
    await screenshot(page, "outbox");
    await page.getByTestId("outbox-message").first().getByRole("link", { name: "Verify email" }).click();
    await page.waitForURL(/\/verify-email\?token=/);
    expect(await page.getByText(email).count()).toBeGreaterThan(0);
    await page.getByLabel("Password", { exact: true }).fill(password);
    await page.getByLabel("Repeat the password").fill("not the same");
    await page.getByRole("button", { name: "Verify email and sign in" }).click();
    await expect.poll(() => page.locator(".alert-error").textContent()).toContain("not the same");
    await page.getByLabel("Password", { exact: true }).fill(password);
    await page.getByLabel("Repeat the password").fill(password);
    await screenshot(page, "verify-email");
    await page.getByRole("button", { name: "Verify email and sign in" }).click();
    await page.waitForURL(/\/notes$/);
    await expect.poll(() => page.getByRole("heading", { name: "No notes yet" }).count()).toBe(1);

    // The session cookie is httpOnly, and the same account now serves agents.
    const cookies = await context.cookies();
    const session = cookies.find((cookie) => cookie.name.endsWith("better-auth.session_token"));
    expect(session?.httpOnly).toBe(true);
    const afterVerify = await stack.api("/api/notes", { token: stack.tokenFor(email) });
    expect(afterVerify.status).toBe(200);

    await page.locator("summary.avatar").click();
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL((url) => url.pathname === "/");
    await page.goto("/notes");
    await page.waitForURL(/\/sign-in\?next=%2Fnotes/);
    await stack.signIn(page, { email, password });
    await context.close();
  });

  it("an account made with `npm run users -- add --password` signs in", async () => {
    const { page, context } = await stack.newPage();
    await stack.signIn(page, operator);
    await expect.poll(() => page.getByRole("heading", { name: "Notes", level: 1 }).count()).toBe(1);
    await context.close();
  });

  it("a wrong password is refused with a clear message", async () => {
    const { page, context } = await stack.newPage();
    await page.goto("/sign-in");
    await page.getByLabel("Email").fill(operator.email);
    await page.getByLabel("Password", { exact: true }).fill("not the password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect.poll(() => page.locator(".alert-error").textContent()).toContain("do not match an account");
    await context.close();
  });

  it("password reset: link by email, new password, sign in with it", async () => {
    const { page, context } = await stack.newPage();
    await page.goto("/sign-in");
    await page.getByRole("link", { name: "Forgot password?" }).click();
    await page.waitForURL(/\/forgot-password/);
    await page.getByLabel("Email").fill(operator.email);
    await page.getByRole("button", { name: "Send reset link" }).click();
    await expect.poll(() => page.locator(".alert-success").textContent()).toContain("is on its way");

    const mail = await stack.waitForMail(operator.email, /Reset your Notes password/);
    await page.goto(mail.links[0]!.url);
    await page.waitForURL(/\/reset-password\?token=/);
    const newPassword = "a brand new password";
    await page.getByLabel("New password", { exact: true }).fill(newPassword);
    await page.getByLabel("Repeat the new password").fill(newPassword);
    await page.getByRole("button", { name: "Set new password" }).click();
    await page.waitForURL(/\/sign-in\?reset=1/);
    operator.password = newPassword;
    await stack.signIn(page, operator);

    // The link works once.
    await page.goto(mail.links[0]!.url);
    await page.waitForURL(/\/reset-password\?error=/);
    expect(await page.getByText("This link does not work").count()).toBe(1);
    await context.close();
  });

  it("the auth endpoints refuse other origins and limit repeated attempts, in the database", async () => {
    const signIn = (origin: string, extra: Record<string, string> = {}) =>
      fetch(`${stack.app.url}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin, ...extra },
        body: JSON.stringify({ email: operator.email, password: "wrong password" }),
      });
    const crossSite = await signIn("https://evil.example", { cookie: "some=cookie" });
    expect(crossSite.status).toBe(403);
    expect(await crossSite.json()).toEqual({ error: "Cross-origin request refused" });

    const statuses: number[] = [];
    for (let i = 0; i < 12; i += 1) statuses.push((await signIn(stack.app.url)).status);
    expect(statuses).toContain(401);
    expect(statuses.at(-1)).toBe(429);

    // The windows live in the rate_limits table, shared by every server instance.
    await stack.app.stop();
    const rows = await stack.database.withDb((db) => db.rateLimit.count());
    expect(rows).toBeGreaterThan(0);
  });
});

// Each test starts a server of its own: slower than the default timeout on a busy machine.
describe("production settings the accounts need", { timeout: 120_000 }, () => {
  it("without a mail transport, sign-up says email delivery is not configured and there is no outbox", async () => {
    const database = await createTestDatabase("pglite");
    const app = await startTestApp({ DATABASE_URL: database.url, BETTER_AUTH_SECRET: "x".repeat(40), OUTBOX_ENABLED: "", SMTP_URL: "" });
    try {
      const page = await fetch(`${app.url}/sign-up`);
      expect(await page.text()).toContain("Email delivery is not configured");
      const signUp = await fetch(`${app.url}/api/auth/sign-up/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: app.url },
        body: JSON.stringify({ email: "new@example.com", password: "long enough", name: "new" }),
      });
      expect(signUp.status).toBe(503);
      expect((await signUp.json()).message).toBe("Email delivery is not configured");
      expect((await fetch(`${app.url}/dev/outbox`)).status).toBe(404);
    } finally {
      await app.stop();
    }
    // Nothing half-made: no account without a way to verify it.
    expect(await database.withDb((db) => db.user.count())).toBe(0);
    await database.drop();
  });

  it("without BETTER_AUTH_SECRET, the server refuses to start instead of using a default", async () => {
    const database = await createTestDatabase("pglite");
    try {
      await expect(startTestApp({ DATABASE_URL: database.url, BETTER_AUTH_SECRET: "", OUTBOX_ENABLED: "1" })).rejects.toThrow(
        /exited with 1[\s\S]*BETTER_AUTH_SECRET is not set/,
      );
    } finally {
      await database.drop();
    }
  });
});
