import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import openapiTS, { astToString } from "openapi-typescript";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { useNotesStack } from "@/tests/helpers/notes-app";

// What a partner developer does first: generate a typed client from the
// served document, by URL, before they have a token. The document is the same
// on both databases: one kind is enough.
describe("a client generated from the served OpenAPI document", () => {
  const stack = useNotesStack("pglite", { users: 1 });

  it("openapi-typescript reads /api/openapi.json by URL without a token, and code written against its types compiles", async () => {
    const callsBefore = stack.identity.calls;
    const types = astToString(await openapiTS(new URL(`${stack.app.url}/api/openapi.json`)));
    expect(stack.identity.calls).toBe(callsBefore);
    expect(types).toContain('"/api/notes": {');
    expect(types).toContain('"/api/notes/{id}": {');

    // The generated types as a client would use them: the list's query (booleans as booleans), a create's answer, a 401's body.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "openapi-client-"));
    try {
      fs.writeFileSync(path.join(dir, "api.d.ts"), types);
      fs.writeFileSync(
        path.join(dir, "client.ts"),
        [
          'import type { paths } from "./api";',
          'type ListQuery = NonNullable<paths["/api/notes"]["get"]["parameters"]["query"]>;',
          'export const query: ListQuery = { search: "plan", pinned: true, highlight: false, limit: 5 };',
          'type Created = paths["/api/notes"]["post"]["responses"][201]["content"]["application/json"];',
          "export const title = (created: Created): string => created.note.title;",
          'type Unauthorized = paths["/api/notes"]["get"]["responses"][401]["content"]["application/json"];',
          "export const why = (failed: Unauthorized): string => failed.error;",
          "// A string where the document says boolean is an error a client catches before sending.",
          '// @ts-expect-error pinned is a boolean',
          'export const wrong: ListQuery = { pinned: "yes" };',
        ].join("\n"),
      );
      const program = ts.createProgram([path.join(dir, "client.ts")], { strict: true, noEmit: true, skipLibCheck: false, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler });
      const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
      expect(diagnostics).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
