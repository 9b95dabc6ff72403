import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ERRORS } from "@/lib/errors";
import { buildOpenApiDocument } from "@/lib/api/openapi";
import { documentServerUrl } from "@/lib/api/index-operations";
import { API_ROUTES } from "@/lib/api/routes";
import { ZListNotesQuerySchema } from "@/lib/notes/schemas";
import { useApiStack } from "@/tests/helpers/notes-app";
import { ROOT } from "@/tests/helpers/test-app";

// The index and the document do not touch the database: one kind is enough.
describe("GET /api, /api/openapi.json, and requests no route answers", () => {
  const stack = useApiStack("pglite", { users: 12 });

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
    // No token: a client generator reads it before it has one.
    const res = await stack.api("/api/openapi.json");
    expect(res.status).toBe(200);
    const doc = res.body;
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.servers).toEqual([{ url: stack.app.url }]);
    // This machine's own origin (development's) is right on this machine only: the document names where it was read from.
    for (const origin of ["http://localhost:3000", "http://127.0.0.1:3000", "http://notes.localhost:3000"]) expect(documentServerUrl(origin), origin).toBe("/");
    expect(doc.paths["/api/openapi.json"].get.security).toEqual([]);
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
    // A query string's true/false is described as the boolean it is, for generated clients.
    expect(list.parameters.find((p: { name: string }) => p.name === "pinned").schema).toEqual({ type: "boolean" });
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
    expect(create.responses["422"].content["application/json"].schema).toEqual({ $ref: "#/components/schemas/Error" });
    expect(header(doc.paths["/api/tags"].post, "Idempotency-Key")).toBeDefined();
    expect(doc.paths["/api/tags"].post.responses["422"]).toBeDefined();

    const read = doc.paths["/api/notes/{id}"].get;
    expect(Object.keys(read.responses["200"].content)).toEqual(["application/json", "text/markdown"]);
    expect(read.responses["200"].headers).toHaveProperty("ETag");
    expect(read.parameters.find((p: { name: string }) => p.name === "format")).toMatchObject({ in: "query", schema: { enum: ["json", "markdown", "blocks"] } });

    const edits = doc.paths["/api/notes/{id}/edits"].post;
    expect(edits.requestBody.content["application/json"].schema.properties).toHaveProperty("operations");
    expect(edits.responses["409"].description).toMatch(/^An operation cannot apply/);
    // Only the edits route answers an edit's 409.
    expect(doc.paths["/api/tags"].post.responses["409"].description).not.toMatch(/edit/i);

    for (const op of [doc.paths["/api/notes/{id}"].patch, doc.paths["/api/notes/{id}"].delete, edits]) {
      expect(header(op, "If-Match")).toMatchObject({ required: false, schema: { type: "string" } });
      const precondition = op.responses["412"];
      expect(precondition.headers).toHaveProperty("ETag");
      expect(precondition.content["application/json"].schema).toMatchObject({ required: ["error", "note"], properties: { error: { const: "Note was modified" } } });
    }
    expect(doc.paths["/api/notes/{id}"].patch.requestBody.content["application/json"].schema.properties).toHaveProperty("contentMarkdown");

    const mcp = doc.paths["/api/mcp"].post;
    expect(mcp.summary).toMatch(/Model Context Protocol/);
    expect(mcp.requestBody.content["application/json"].schema.anyOf[0].properties.jsonrpc).toEqual({ type: "string", const: "2.0" });
    expect(Object.keys(mcp.responses)).toEqual(expect.arrayContaining(["200", "202", "401"]));

    // Routes without the new features describe exactly what they did.
    expect(doc.paths["/api/notes"].get.responses["200"]).toEqual({
      description: "Success",
      content: { "application/json": { schema: expect.any(Object) } },
    });
    expect(doc.paths["/api/tags/{id}"].delete.responses["204"]).toEqual({ description: "No content" });
    expect(doc.paths["/api/tags/{id}"].delete.responses["404"]).toEqual({
      description: "No such resource for this user",
      content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
    });
    expect(doc.components.schemas.Error.required).toEqual(["error"]);
  });

  it("GET /api/openapi.json declares, for every operation, an operationId and the failures of the error table", async () => {
    const doc = (await stack.api("/api/openapi.json", { token: stack.freshUser().token() })).body;
    const operations = Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([p, ops]) =>
      Object.entries(ops).map(([method, op]) => ({ name: `${method.toUpperCase()} ${p}`, op })),
    );
    const ids = operations.map(({ op }) => op.operationId);
    expect(ids.every((id) => typeof id === "string" && /^[a-z][A-Za-z]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    // Statuses no request feature decides (auth, server, database, rate limits, …) are declared on every operation.
    // A 403 refuses another site's page on the browser's sign-in routes and server actions, which the document leaves out,
    // and on /api/mcp, which declares it.
    const everywhere = [...new Set(Object.values(ERRORS).flatMap(({ status, means }) => (means === null ? [] : [status])))].filter((s) => ![400, 403, 404, 405, 409, 412, 413, 415, 422].includes(s));
    for (const { name, op } of operations) {
      // A public route (the health check) takes no token: no 401, and no user's 429.
      const expected = op.security?.length === 0 ? everywhere.filter((s) => s !== 401 && s !== 429) : everywhere;
      for (const status of expected) expect(op.responses, `${name} ${status}`).toHaveProperty(String(status));
      // A 401 says how to authenticate, and that an expired token is the problem when it is.
      if (expected.includes(401)) expect(op.responses["401"].headers?.["WWW-Authenticate"]?.description, name).toContain('error="invalid_token"');
      expect(op.responses, name).toHaveProperty("400");
      if (name === "POST /api/mcp") expect(op.responses, name).toHaveProperty("403");
      else expect(op.responses, name).not.toHaveProperty("403");
    }
    expect(doc.paths["/api/notes/{id}"].get.responses["503"].headers).toHaveProperty("Retry-After");
    for (const op of [doc.paths["/api/notes"].post, doc.paths["/api/tags/{id}"].patch]) {
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(["400", "401", "413", "415", "500", "503"]));
    }
    expect(Object.keys(doc.paths["/api/tags/{id}"].patch.responses)).toEqual(expect.arrayContaining(["200", "404", "409"]));
    expect(doc.paths["/api/notes"].get.responses).not.toHaveProperty("404");
    const mcp = doc.paths["/api/mcp"].post;
    for (const status of ["400", "406", "413", "415"]) {
      expect(mcp.responses[status].content["application/json"].schema.anyOf).toContainEqual({ $ref: "#/components/schemas/JsonRpcError" });
    }
    expect(mcp.requestBody.content["application/json"].schema.anyOf[1]).toMatchObject({ type: "array" });
    expect(mcp.responses["200"].content["application/json"].schema.anyOf[1]).toMatchObject({ type: "array" });
  });

  it.each([
    ["as served", async () => (await stack.api("/api/openapi.json")).text],
    ["of development (http://localhost:3000)", async () => JSON.stringify(buildOpenApiDocument(documentServerUrl("http://localhost:3000"), API_ROUTES))],
    ["of a production origin", async () => JSON.stringify(buildOpenApiDocument(documentServerUrl("https://notes.acme.dev"), API_ROUTES))],
  ])("the document %s passes Redocly's lint with redocly.yaml: 0 errors, 0 warnings", async (_how, read) => {
    const text = await read();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "openapi-lint-"));
    try {
      const file = path.join(dir, "openapi.json");
      fs.writeFileSync(file, text);
      const lint = spawnSync(
        process.execPath,
        [path.join(ROOT, "node_modules/@redocly/cli/bin/cli.js"), "lint", "--config", path.join(ROOT, "redocly.yaml"), "--format", "json", file],
        { cwd: dir, encoding: "utf8", env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" }, timeout: 60_000 },
      );
      const report = JSON.parse(lint.stdout) as { totals: { errors: number; warnings: number }; problems: { ruleId: string; message: string }[] };
      expect(report.problems.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
      expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
      expect(lint.status).toBe(0);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each([
    ["PUT", "/api/notes", "GET, POST"],
    ["DELETE", "/api/notes", "GET, POST"],
    ["POST", "/api/notes/4b1c1a5e-0d7a-4c38-9d0e-6c1f3b2a9e10", "GET, PATCH, DELETE"],
    ["GET", "/api/tags/4b1c1a5e-0d7a-4c38-9d0e-6c1f3b2a9e10", "PATCH, DELETE"],
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
