import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { documentServerUrl } from "@/lib/api/index-operations";
import { screenshot, startBrowserStack, type BrowserStack } from "@/tests/helpers/browser";
import { rawRequest } from "@/tests/helpers/raw-http";

// The attacks of an account takeover, against the production build with mail in
// the outbox: poisoned links and signing up with someone else's email first
// (password guessing: auth-rate-limits.test.ts). Each test uses emails of its own.
describe("accounts under attack", () => {
  let stack: BrowserStack;
  const operator = { email: "operator@example.com", password: "operator-password-1" };
  const poison = { host: "evil.example", "x-forwarded-host": "evil.example", "x-forwarded-proto": "javascript", "x-forwarded-port": "666" };

  beforeAll(async () => {
    stack = await startBrowserStack({ accounts: [operator] });
  });
  afterAll(() => stack?.stop());

  /** A JSON POST to the auth endpoints as a script would send it, from the app's own origin unless `headers` say otherwise. */
  const authPost = (path: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    rawRequest(`${stack.app.url}/api/auth${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: stack.app.url, ...headers },
      body: JSON.stringify(body),
    });

  describe("poisoned Host and X-Forwarded-Host change no link", () => {
    it("password reset and verification emails link to APP_URL", async () => {
      // Without an Origin header (a script, not a page): only the library's own checks apply.
      const reset = await authPost("/request-password-reset", { email: operator.email, redirectTo: "/reset-password" }, { ...poison, origin: "" });
      expect(reset.status, reset.text).toBe(200);
      const resetMail = await stack.waitForMail(operator.email, /Reset your Notes password/);
      expect(resetMail.links[0]!.url.startsWith(`${stack.app.url}/api/auth/reset-password/`)).toBe(true);
      expect(resetMail.text + resetMail.html).not.toContain("evil.example");

      const signUp = await authPost("/sign-up/email", { email: "poisoned@example.com", password: "a-placeholder-password", name: "p" }, { ...poison, origin: "" });
      expect(signUp.status, signUp.text).toBe(200);
      const verifyMail = await stack.waitForMail("poisoned@example.com", /Verify your email/);
      expect(verifyMail.links[0]!.url.startsWith(`${stack.app.url}/verify-email?token=`)).toBe(true);
      expect(verifyMail.text + verifyMail.html).not.toContain("evil.example");

      // A reset link pointing elsewhere is refused outright.
      const elsewhere = await authPost("/request-password-reset", { email: operator.email, redirectTo: "https://evil.example/steal" });
      expect(elsewhere.status).toBe(403);
    });

    it("USER_NOT_FOUND's base_url and OpenAPI servers come from APP_URL", async () => {
      const stranger = await rawRequest(`${stack.app.url}/api/notes`, { headers: { ...poison, "x-session-token": stack.tokenFor("stranger@example.com") } });
      expect(stranger.status).toBe(401);
      expect(stranger.json()).toEqual({ error: `User not found — sign up at ${stack.app.url} first`, email: "stranger@example.com" });

      const doc = await rawRequest(`${stack.app.url}/api/openapi.json`, { headers: poison });
      expect(doc.status).toBe(200);
      // APP_URL's own, which names the document's server as / here (this machine's origin): never the poisoned host.
      expect(doc.json().servers).toEqual([{ url: documentServerUrl(stack.app.url) }]);
      expect(JSON.stringify(doc.json())).not.toContain("evil.example");
    });

    it("a page served for a forged Host still posts only to APP_URL: another origin is a JSON 403", async () => {
      const forged = await authPost("/sign-in/email", { email: operator.email, password: operator.password }, { host: "evil.example", origin: "http://evil.example" });
      expect(forged.status).toBe(403);
      expect(forged.json()).toEqual({ error: "Cross-origin request refused" });
      expect(forged.headers["set-cookie"]).toBeUndefined();
    });
  });

  describe("signing up with someone else's email first", () => {
    const attackerPassword = "attacker-knows-this-1";

    it("the owner verifies from the attacker's sign-up: only the owner's password signs in", async () => {
      const email = "victim-a@example.com";
      const attackerSignUp = await authPost("/sign-up/email", { email, password: attackerPassword, name: "x" });
      expect(attackerSignUp.status, attackerSignUp.text).toBe(200);
      // Pending: nobody signs in with it, nor do agents reach it.
      expect((await authPost("/sign-in/email", { email, password: attackerPassword })).json().code).toBe("EMAIL_NOT_VERIFIED");
      expect((await stack.api("/api/notes", { token: stack.tokenFor(email) })).status).toBe(401);

      // The mailbox owner opens the link they did not ask for, and chooses a password there.
      const mail = await stack.waitForMail(email, /Verify your email/);
      const { page, context } = await stack.newPage();
      await page.goto(mail.links[0]!.url);
      await page.getByLabel("Password", { exact: true }).fill("the-owners-password");
      await page.getByLabel("Repeat the password").fill("the-owners-password");
      await screenshot(page, "verify-email-choose-password");
      await page.getByRole("button", { name: "Verify email and sign in" }).click();
      await page.waitForURL(/\/notes$/);
      await context.close();

      const attacker = await authPost("/sign-in/email", { email, password: attackerPassword });
      expect(attacker.status).toBe(401);
      expect(attacker.json().code).toBe("INVALID_EMAIL_OR_PASSWORD");
      expect((await authPost("/sign-in/email", { email, password: "the-owners-password" })).status).toBe(200);
      expect((await stack.api("/api/notes", { token: stack.tokenFor(email) })).status).toBe(200);
    });

    it("the owner signs up after the attacker: the newer sign-up replaces the pending one, and the owner sets their own password", async () => {
      const email = "victim-b@example.com";
      expect((await authPost("/sign-up/email", { email, password: attackerPassword, name: "x" })).status).toBe(200);
      const attackerLink = (await stack.waitForMail(email, /Verify your email/)).links[0]!.url;

      const { page, context } = await stack.newPage();
      await page.goto("/sign-up");
      await page.getByLabel("Email").fill(email);
      await page.getByRole("button", { name: "Create account" }).click();
      await page.waitForURL(/\/check-email\?email=/);
      const mails = (await stack.outbox()).filter((message) => message.to === email && /Verify your email/.test(message.subject));
      expect(mails).toHaveLength(2);
      const ownerLink = mails[0]!.links[0]!.url;
      expect(ownerLink).not.toBe(attackerLink);

      // The link from the replaced sign-up no longer works.
      await page.goto(attackerLink);
      expect(await page.getByRole("heading", { name: "This link does not work" }).count()).toBe(1);

      await page.goto(ownerLink);
      await page.getByLabel("Password", { exact: true }).fill("owner-chose-this");
      await page.getByLabel("Repeat the password").fill("owner-chose-this");
      await page.getByRole("button", { name: "Verify email and sign in" }).click();
      await page.waitForURL(/\/notes$/);

      // Opening the link again says it is done, and changes nothing.
      await page.goto(ownerLink);
      expect(await page.getByRole("heading", { name: "Your email is verified" }).count()).toBe(1);
      await context.close();

      expect((await authPost("/sign-in/email", { email, password: attackerPassword })).status).toBe(401);
      expect((await authPost("/sign-in/email", { email, password: "owner-chose-this" })).status).toBe(200);
    });

    it("the library's own verify endpoint verifies nothing: it leads to the page that sets the password", async () => {
      const email = "victim-c@example.com";
      expect((await authPost("/sign-up/email", { email, password: attackerPassword, name: "x" })).status).toBe(200);
      const link = new URL((await stack.waitForMail(email, /Verify your email/)).links[0]!.url);
      const direct = await rawRequest(`${stack.app.url}/api/auth/verify-email?token=${link.searchParams.get("token")}&callbackURL=/notes`);
      expect(direct.status).toBe(302);
      expect(direct.headers.location).toBe(`${stack.app.url}/verify-email?token=${encodeURIComponent(link.searchParams.get("token")!)}`);
      expect((await authPost("/sign-in/email", { email, password: attackerPassword })).json().code).toBe("EMAIL_NOT_VERIFIED");
    });
  });
});
