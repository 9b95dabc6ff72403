import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_ROUTES } from "@/lib/api/routes";
import { startNotesStack, type NotesStack } from "@/tests/helpers/notes-app";

// The index and the document do not touch the database: one kind is enough.
describe("GET /api, /api/openapi.json, and requests no route answers", () => {
  let stack: NotesStack;
  beforeAll(async () => {
    stack = await startNotesStack("pglite", { users: 12 });
  });
  afterAll(() => stack?.stop());

  it("GET /api lists every endpoint of the route table", async () => {
    const res = await stack.api("/api", { token: stack.freshUser().token() });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      name: "Notes API",
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      endpoints: API_ROUTES.map(({ method, path, description }) => ({ method, path, description })),
    });
    const listed = res.body.endpoints.map((e: { method: string; path: string }) => `${e.method} ${e.path}`);
    for (const route of ["GET /api/notes", "POST /api/notes", "GET /api/notes/{id}", "PATCH /api/notes/{id}", "DELETE /api/notes/{id}", "GET /api/tags"]) {
      expect(listed).toContain(route);
    }
  });

  it("GET /api/openapi.json is an OpenAPI 3.1 document of the same routes and schemas", async () => {
    const res = await stack.api("/api/openapi.json", { token: stack.freshUser().token() });
    expect(res.status).toBe(200);
    const doc = res.body;
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.servers).toEqual([{ url: stack.app.url }]);
    expect(doc.components.securitySchemes.sessionToken).toEqual({ type: "apiKey", in: "header", name: "x-session-token" });
    const operations = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(operations.sort()).toEqual(API_ROUTES.map((r) => `${r.method} ${r.path}`).sort());
    const create = doc.paths["/api/notes"].post;
    const body = create.requestBody.content["application/json"].schema;
    expect(body.required).toEqual(["title"]);
    expect(body.properties.title).toMatchObject({ type: "string", minLength: 1, maxLength: 500 });
    expect(create.responses["201"]).toBeDefined();
    const list = doc.paths["/api/notes"].get;
    expect(list.parameters.map((p: { name: string }) => p.name)).toEqual(["search", "tagId", "limit", "offset"]);
  });

  it.each([
    ["PUT", "/api/notes", "GET, POST"],
    ["DELETE", "/api/notes", "GET, POST"],
    ["POST", "/api/notes/4b1c1a5e-0d7a-4c38-9d0e-6c1f3b2a9e10", "GET, PATCH, DELETE"],
    ["GET", "/api/tags/4b1c1a5e-0d7a-4c38-9d0e-6c1f3b2a9e10", "DELETE"],
    ["POST", "/api", "GET"],
  ])("%s %s is a JSON 405 with Allow", async (method, path, allow) => {
    const res = await stack.api(path, { method, token: stack.freshUser().token() });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe(allow);
    expect(res.body.error).toEqual(expect.stringContaining(method));
  });

  it("an unknown /api path is a JSON 404", async () => {
    const res = await stack.api("/api/nothing/here", { token: "st" });
    expect(res.status).toBe(404);
    expect(res.body.error).toMatch(/No route/);
  });
});
