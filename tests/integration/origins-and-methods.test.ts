import { spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { API_ROUTES } from "@/lib/api/routes";
import { useNotesStack } from "@/tests/helpers/notes-app";
import { rawRequest } from "@/tests/helpers/raw-http";
import { collectOutput, freePort, stopChild } from "@/scripts/lib/processes";
import { ROOT } from "@/tests/helpers/test-app";

describe("origins and methods", () => {
  const stack = useNotesStack("pglite", { users: 1 });

  it("OPTIONS lists exactly the methods each route answers", async () => {
    const paths = [...new Set(API_ROUTES.map((route) => route.path))];
    for (const routePath of paths) {
      const url = routePath.replace("{id}", "4b1c1a5e-0d7a-4c38-9d0e-6c1f3b2a9e10");
      const methods: string[] = API_ROUTES.filter((route) => route.path === routePath).map((route) => route.method);
      const res = await fetch(`${stack.app.url}${url}`, { method: "OPTIONS" });
      expect(res.status, routePath).toBe(204);
      const allow = res.headers.get("allow")!.split(", ");
      expect(allow, routePath).toEqual([...methods, ...(methods.includes("GET") ? ["HEAD"] : []), "OPTIONS"]);
      // Every method it does not list answers 405.
      for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"].filter((m) => !allow.includes(m))) {
        expect((await fetch(`${stack.app.url}${url}`, { method })).status, `${method} ${routePath}`).toBe(405);
      }
    }
  });

  it("a server action posted from another origin is a JSON 403, even with a Host to match", async () => {
    const attempts: Record<string, string>[] = [{ origin: "https://evil.example" }, { origin: "http://evil.example", host: "evil.example" }, { origin: "null" }];
    for (const headers of attempts) {
      const res = await rawRequest(`${stack.app.url}/notes`, {
        method: "POST",
        headers: { "next-action": "0123456789abcdef0123456789abcdef01234567", "content-type": "text/plain;charset=UTF-8", ...headers },
        body: "[]",
      });
      expect(res.status).toBe(403);
      expect(res.headers["content-type"]).toMatch(/^application\/json/);
      expect(res.json()).toEqual({ error: "Cross-origin request refused" });
    }
  });

  it("an auth endpoint posted from another origin is a JSON 403", async () => {
    const res = await rawRequest(`${stack.app.url}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { origin: "https://evil.example", "content-type": "application/json", "sec-fetch-site": "cross-site" },
      body: JSON.stringify({ email: "user0@example.com", password: "whatever-it-is" }),
    });
    expect(res.status).toBe(403);
    expect(res.json()).toEqual({ error: "Cross-origin request refused" });
  });

  it("an auth body is held to 16384 characters, however many bytes they take, declared or streamed", async () => {
    const post = (body: BodyInit, contentType = "application/json") =>
      fetch(`${stack.app.url}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { origin: stack.app.url, "content-type": contentType },
        body,
        duplex: "half",
      } as RequestInit);
    const tooLarge = { error: "Request body must be at most 16384 characters" };

    // 12,000 two-byte characters: over 16 KiB, within the limit, so it reaches the sign-in.
    const wide = await post(JSON.stringify({ email: "user0@example.com", password: "é".repeat(12_000) }));
    expect(wide.status).not.toBe(413);

    const long = await post(JSON.stringify({ email: "user0@example.com", password: "x".repeat(16_400) }));
    expect(long.status).toBe(413);
    expect(await long.json()).toEqual(tooLarge);

    const streamed = await post(
      new ReadableStream({
        start(controller) {
          for (let i = 0; i < 100; i += 1) controller.enqueue(new TextEncoder().encode("x".repeat(1024)));
          controller.close();
        },
      }),
    );
    expect(streamed.status).toBe(413);
    expect(await streamed.json()).toEqual(tooLarge);

    const notJson = await post("x".repeat(100_000), "text/plain");
    expect(notJson.status).toBe(415);
    expect(await notJson.json()).toEqual({ error: "Content-Type must be application/json" });
  });
});

describe("a production server without APP_URL", () => {
  it.each([
    ["unset", "", "APP_URL is not set"],
    ["not an http(s) origin", "javascript://notes.example.com", "Invalid environment configuration: APP_URL"],
  ])("refuses to start when APP_URL is %s, saying why", async (_label, value, message) => {
    const port = await freePort();
    const child = spawn(process.execPath, [path.join(ROOT, "node_modules/next/dist/bin/next"), "start", "-p", String(port), "-H", "127.0.0.1"], {
      cwd: ROOT,
      env: { ...process.env, NODE_ENV: "production", APP_URL: value, BETTER_AUTH_SECRET: "a-test-secret-that-is-long-enough-0123456789", DATABASE_URL: "pglite:memory" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const output = collectOutput(child);
    try {
      // "close", not "exit": the output is complete only once the pipes have closed.
      const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
      expect(code).toBe(1);
      expect(output()).toContain(message);
    } finally {
      await stopChild(child);
    }
  });
});
