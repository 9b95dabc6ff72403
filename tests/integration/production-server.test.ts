import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { waitFor } from "@/scripts/lib/processes";
import { SERVER_ENV } from "@/scripts/lib/server-options";
import { TEST_DB_KINDS } from "@/tests/helpers/env";
import { useNotesStack } from "@/tests/helpers/notes-app";

// What the production build serves with, which the api layer (the route
// handlers in the test's process, tests/api/markdown.test.ts) cannot see.
describe.each(TEST_DB_KINDS)("the production server's conversions and entry (%s)", (kind) => {
  const stack = useNotesStack(kind, { users: 1 });

  it("converts in the worker `npm run build` bundled into the build, not the checkout's TypeScript", async () => {
    // Logged once, as the server starts its pool (at startup).
    const started = /"event":"conversion\.pool_started","threads":\d+,"worker":"(\w+)"/;
    await waitFor(() => started.test(stack.app.output()), { timeoutMs: 10_000, message: () => `${started} in:\n${stack.app.output()}` });
    expect(started.exec(stack.app.output())?.[1]).toBe("bundled");
  });

  it("serves from the entry `npm run build` bundled, with no compiler loaded and the server's malloc settings", () => {
    const proc = `/proc/${stack.app.pid}`;
    const args = readFileSync(`${proc}/cmdline`, "utf8").split("\0").filter(Boolean);
    expect(args.at(-1)).toMatch(/\/serve\.mjs$/);
    expect(args.join(" ")).not.toMatch(/tsx/);
    // Neither tsx's compiler nor Next's native one (which a TypeScript config would load).
    expect(readFileSync(`${proc}/maps`, "utf8")).not.toMatch(/esbuild|swc/);
    expect(readFileSync(`${proc}/environ`, "utf8").split("\0")).toEqual(expect.arrayContaining(Object.entries(SERVER_ENV).map(([name, value]) => `${name}=${value}`)));
  });

  it("logs one line per request: method, path without its query, status, duration, request id and the account; never a token or a search", async () => {
    const user = stack.freshUser();
    const token = user.token();
    const requestId = `log-check-${Date.now()}`;
    const listed = await fetch(`${stack.app.url}/api/notes?search=confidential-words`, { headers: { "x-session-token": token, "x-request-id": requestId } });
    expect(listed.status).toBe(200);
    const signIn = await fetch(`${stack.app.url}/sign-in`);
    expect(signIn.status).toBe(200);
    const lines = () =>
      stack.app
        .output()
        .split("\n")
        .filter((line) => line.startsWith("{") && line.includes('"event":"request"'))
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    await waitFor(() => lines().find((line) => line.requestId === requestId), { timeoutMs: 10_000, message: () => `the request's line in:\n${stack.app.output()}` });
    expect(lines().find((line) => line.requestId === requestId)).toEqual({
      level: "info",
      time: expect.any(String),
      event: "request",
      method: "GET",
      path: "/api/notes",
      status: 200,
      ms: expect.any(Number),
      requestId,
      accountId: user.id,
    });
    await waitFor(() => lines().find((line) => line.path === "/sign-in"), { timeoutMs: 10_000, message: "the page's line" });
    expect(lines().find((line) => line.path === "/sign-in")).toMatchObject({ method: "GET", status: 200 });
    expect(lines().find((line) => line.path === "/sign-in")).not.toHaveProperty("accountId");
    expect(stack.app.output()).not.toContain("confidential-words");
    expect(stack.app.output()).not.toContain(token);
  });
});
