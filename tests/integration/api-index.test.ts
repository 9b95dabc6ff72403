import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_ROUTES } from "@/lib/api/routes";
import { ZListNotesQuerySchema } from "@/lib/notes/schemas";
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
    expect(list.parameters.map((p: { name: string }) => p.name)).toEqual(Object.keys(ZListNotesQuerySchema.shape));
    expect(list.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(["search", "tagId", "limit", "offset"]));
  });

  it("GET /api/openapi.json describes Markdown, ETag and If-Match, Idempotency-Key, 412 and 422, and the MCP endpoint", async () => {
    const doc = (await stack.api("/api/openapi.json", { token: stack.freshUser().token() })).body;
    const header = (op: { parameters?: { name: string; in: string }[] }, name: string) =>
      op.parameters?.find((p) => p.in === "header" && p.name === name);

    const create = doc.paths["/api/notes"].post;
    expect(create.requestBody.content["application/json"].schema.properties.contentMarkdown).toMatchObject({ type: "string", maxLength: 100_000 });
    expect(header(create, "Idempotency-Key")).toMatchObject({ required: false, schema: { type: "string", minLength: 1, maxLength: 255 } });
    expect(create.responses["201"].headers).toHaveProperty("ETag");
    expect(create.responses["201"].headers).toHaveProperty("Idempotent-Replayed");
    expect(create.responses["422"].content["application/json"].schema.required).toEqual(["error"]);
    expect(header(doc.paths["/api/tags"].post, "Idempotency-Key")).toBeDefined();
    expect(doc.paths["/api/tags"].post.responses["422"]).toBeDefined();

    const read = doc.paths["/api/notes/{id}"].get;
    expect(Object.keys(read.responses["200"].content)).toEqual(["application/json", "text/markdown"]);
    expect(read.responses["200"].headers).toHaveProperty("ETag");
    expect(read.parameters.find((p: { name: string }) => p.name === "format")).toMatchObject({ in: "query", schema: { enum: ["json", "markdown"] } });

    for (const op of [doc.paths["/api/notes/{id}"].patch, doc.paths["/api/notes/{id}"].delete]) {
      expect(header(op, "If-Match")).toMatchObject({ required: false, schema: { type: "string" } });
      const precondition = op.responses["412"];
      expect(precondition.headers).toHaveProperty("ETag");
      expect(precondition.content["application/json"].schema).toMatchObject({ required: ["error", "note"], properties: { error: { const: "Note was modified" } } });
    }
    expect(doc.paths["/api/notes/{id}"].patch.requestBody.content["application/json"].schema.properties).toHaveProperty("contentMarkdown");

    const mcp = doc.paths["/api/mcp"].post;
    expect(mcp.summary).toMatch(/Model Context Protocol/);
    expect(mcp.requestBody.content["application/json"].schema.properties.jsonrpc).toEqual({ type: "string", const: "2.0" });
    expect(Object.keys(mcp.responses)).toEqual(expect.arrayContaining(["200", "202", "401"]));

    // Routes without the new features describe exactly what they did.
    expect(doc.paths["/api/notes"].get.responses["200"]).toEqual({
      description: "Success",
      content: { "application/json": { schema: expect.any(Object) } },
    });
    expect(doc.paths["/api/tags/{id}"].delete.responses["204"]).toEqual({ description: "No content" });
    expect(doc.paths["/api/tags/{id}"].delete.responses["404"]).toEqual({
      description: "Error",
      content: { "application/json": { schema: expect.objectContaining({ required: ["error"] }) } },
    });
  });

  it.each([
    ["PUT", "/api/notes", "GET, POST"],
    ["DELETE", "/api/notes", "GET, POST"],
    ["POST", "/api/notes/4b1c1a5e-0d7a-4c38-9d0e-6c1f3b2a9e10", "GET, PATCH, DELETE"],
    ["GET", "/api/tags/4b1c1a5e-0d7a-4c38-9d0e-6c1f3b2a9e10", "DELETE"],
    ["POST", "/api", "GET"],
    ["GET", "/api/mcp", "POST"],
    ["PUT", "/api/mcp", "POST"],
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
