import { randomBytes } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startNotesStack, type NotesStack } from "@/tests/helpers/notes-app";
import { ROOT } from "@/tests/helpers/test-app";

// Nothing server-side reaches a browser: not the names of the server's
// settings (the env module's schema), nor the values this server runs with.
// The suite's global setup built the app; this reads what the build emitted
// for browsers and what the running server actually serves.

/** Every setting .env.example documents (names with an underscore: short ones like PORT occur in any code). */
async function settingNames(): Promise<string[]> {
  const example = await readFile(path.join(ROOT, ".env.example"), "utf8");
  return [...example.matchAll(/^#?\s*([A-Z][A-Z0-9]*_[A-Z0-9_]+)=/gm)].map((match) => match[1]!);
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

describe("the client bundle", () => {
  let stack: NotesStack;
  const secrets = {
    BETTER_AUTH_SECRET: randomBytes(32).toString("base64"),
    SMTP_URL: `smtp://notes:${randomBytes(12).toString("hex")}@127.0.0.1:2525`,
  };
  beforeAll(async () => {
    stack = await startNotesStack("pglite", { users: 1, env: secrets });
  });
  afterAll(() => stack?.stop());

  it("documents the settings this test looks for", async () => {
    const names = await settingNames();
    for (const name of ["BETTER_AUTH_SECRET", "IDENTITY_PARTNER_KEY", "DATABASE_URL", "SMTP_URL", "APP_URL", "TRUSTED_PROXY_HEADER", "API_RATE_LIMIT"]) {
      expect(names).toContain(name);
    }
  });

  it("no file the build emitted for browsers (.next/static) names a server setting", async () => {
    const names = await settingNames();
    const files = await filesUnder(path.join(ROOT, ".next", "static"));
    expect(files.filter((file) => file.endsWith(".js")).length).toBeGreaterThan(5);
    const found: string[] = [];
    for (const file of files) {
      const text = await readFile(file, "utf8");
      for (const name of names) if (new RegExp(`\\b${name}\\b`).test(text)) found.push(`${name} in ${path.relative(ROOT, file)}`);
    }
    expect(found).toEqual([]);
  });

  it("no page or script the server serves carries a setting's name or this server's secret values", async () => {
    const names = await settingNames();
    const values = [secrets.BETTER_AUTH_SECRET, secrets.SMTP_URL, secrets.SMTP_URL.split(":")[2]!.split("@")[0]!, stack.identity.partnerKey, stack.database.url];
    const pages = ["/", "/sign-in", "/sign-up", "/forgot-password", "/check-email?email=a%40example.com", "/verify-email?token=x", "/reset-password?token=x"];
    const served = new Map<string, string>();
    for (const page of pages) {
      const res = await fetch(`${stack.app.url}${page}`);
      expect(res.status, page).toBe(200);
      served.set(page, await res.text());
    }
    const scripts = new Set<string>();
    for (const html of served.values()) for (const match of html.matchAll(/\/_next\/static\/[^"'\s)\\]+\.(?:js|css)/g)) scripts.add(match[0]);
    expect(scripts.size).toBeGreaterThan(3);
    for (const script of scripts) {
      const res = await fetch(`${stack.app.url}${script}`);
      expect(res.status, script).toBe(200);
      served.set(script, await res.text());
    }
    const found: string[] = [];
    for (const [where, text] of served) {
      for (const name of names) if (new RegExp(`\\b${name}\\b`).test(text)) found.push(`${name} in ${where}`);
      for (const value of values) if (text.includes(value)) found.push(`a secret value in ${where}`);
    }
    expect(found).toEqual([]);
  });
});
