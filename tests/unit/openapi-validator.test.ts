import { describe, expect, it } from "vitest";
import { OpenApiResponseValidator } from "@/tests/helpers/openapi-validator";

const json = (extra: Record<string, string> = {}) => new Headers({ "content-type": "application/json", ...extra });
const ID = "4b1c1a5e-0d7a-4c38-9d0e-6c1f3b2a9e10";
const TAG = { id: ID, name: "Work", createdAt: "2026-01-01T00:00:00.000Z" };

// The checker the integration tests run every response through: it must pass
// what the document declares and catch what it does not.
describe("OpenApiResponseValidator", () => {
  const validator = new OpenApiResponseValidator();
  const check = (method: string, path: string, status: number, headers: Headers, body: unknown) =>
    validator.check(method, path, status, headers, typeof body === "string" ? body : JSON.stringify(body));

  it("passes declared statuses with conforming bodies", () => {
    expect(check("PATCH", `/api/tags/${ID}`, 200, json(), { tag: TAG })).toEqual({ kind: "operation", problem: undefined });
    expect(check("PATCH", `/api/tags/${ID}`, 409, json(), { error: "A tag with this name already exists" }).problem).toBeUndefined();
    expect(check("DELETE", `/api/tags/${ID}`, 204, new Headers(), "").problem).toBeUndefined();
    expect(check("GET", `/api/notes/${ID}`, 200, new Headers({ "content-type": "text/markdown; charset=utf-8" }), "# T\n").problem).toBeUndefined();
    expect(check("GET", "/api/notes", 503, json({ "retry-after": "1" }), { error: "Service temporarily unavailable — retry shortly" }).problem).toBeUndefined();
    const rpcError = { jsonrpc: "2.0", id: null, error: { code: -32000, message: "Not Acceptable" } };
    expect(check("POST", "/api/mcp", 406, json(), rpcError).problem).toBeUndefined();
    expect(check("POST", "/api/mcp", 200, json(), [{ jsonrpc: "2.0", id: 1, result: {} }, { jsonrpc: "2.0", id: 2, result: {} }]).problem).toBeUndefined();
  });

  it("flags an undeclared status, a wrong body, a missing body and an undeclared media type", () => {
    expect(check("GET", "/api/tags", 404, json(), { error: "x" }).problem).toMatch(/undeclared status 404/);
    expect(check("GET", "/api/tags", 409, json(), { error: "x" }).problem).toMatch(/undeclared status 409/);
    expect(check("PATCH", `/api/tags/${ID}`, 200, json(), { tag: { ...TAG, extra: 1 } }).problem).toMatch(/does not match/);
    expect(check("PATCH", `/api/tags/${ID}`, 200, json(), { tag: { ...TAG, id: "nope" } }).problem).toMatch(/does not match/);
    expect(check("PATCH", `/api/tags/${ID}`, 400, json(), { message: "x" }).problem).toMatch(/does not match/);
    expect(check("PATCH", `/api/tags/${ID}`, 200, json(), "").problem).toMatch(/empty body/);
    expect(check("DELETE", `/api/tags/${ID}`, 204, json(), { ok: true }).problem).toMatch(/a body where none/);
    expect(check("GET", "/api/tags", 200, new Headers({ "content-type": "text/html" }), "<p>").problem).toMatch(/undeclared media type/);
    expect(check("POST", "/api/mcp", 200, json(), { result: {} }).problem).toMatch(/does not match/);
  });

  it("holds methods and paths outside the document to the 405, OPTIONS and 404 it promises", () => {
    const notAllowed = { error: "Method PUT not allowed; use GET, POST" };
    expect(check("PUT", "/api/notes", 405, json({ allow: "GET, POST" }), notAllowed)).toEqual({ kind: "outside", problem: undefined });
    expect(check("PUT", "/api/notes", 405, json({ allow: "GET" }), notAllowed).problem).toMatch(/Allow/);
    expect(check("PUT", "/api/notes", 404, json(), { error: "x" }).problem).toMatch(/not 405/);
    expect(check("PUT", "/api/notes", 405, new Headers({ allow: "GET, POST" }), "").problem).toMatch(/media type/);
    expect(check("OPTIONS", "/api/notes", 204, new Headers({ allow: "GET, HEAD, POST, OPTIONS" }), "").problem).toBeUndefined();
    expect(check("GET", "/api/nothing/here", 404, json(), { error: "No route" })).toEqual({ kind: "outside", problem: undefined });
    expect(check("GET", "/api/nothing/here", 200, json(), {}).problem).toMatch(/not 404/);
    expect(check("POST", "/api/auth/sign-in/email", 200, json(), {})).toEqual({ kind: "skipped" });
  });
});
