import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { API_ROUTES } from "@/lib/api/routes";
import { runAction } from "@/lib/actions/run-action";
import { deleteTagOperation, listTagsOperation } from "@/lib/operations/tags";
import { MCP_TOOLS } from "@/lib/mcp/tool-table";
import { useMcpClients } from "@/tests/helpers/mcp-client";
import { useApiStack } from "@/tests/helpers/notes-app";
import { ROOT } from "@/tests/helpers/test-app";

const name = (op: { method: string; path: string }) => `${op.method} ${op.path}`;
const urlOf = (routePath: string) => routePath.replace(/\{[^}]+\}/g, "4b1c1a5e-0d7a-4c38-9d0e-6c1f3b2a9e10");

// The table is the one list of endpoints: each is served, indexed, documented and (where marked) an MCP tool.
describe("the operation table (lib/api/routes.ts)", () => {
  const stack = useApiStack("pglite", { users: 4 });
  const connect = useMcpClients(() => stack.app.url);

  it("every path's route file answers exactly its operations: OPTIONS names them, any other method is a 405", async () => {
    const token = stack.freshUser().token();
    const paths = [...new Set(API_ROUTES.map((op) => op.path))];
    for (const routePath of paths) {
      const methods: string[] = API_ROUTES.filter((op) => op.path === routePath).map((op) => op.method);
      const res = await stack.api(urlOf(routePath), { method: "OPTIONS" });
      expect(res.status, routePath).toBe(204);
      const allow = res.headers.get("allow")!.split(", ");
      expect(allow.filter((m) => m !== "HEAD" && m !== "OPTIONS").sort(), routePath).toEqual([...methods].sort());
      for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"].filter((m) => !methods.includes(m))) {
        expect((await stack.api(urlOf(routePath), { method, token })).status, `${method} ${routePath}`).toBe(405);
      }
    }
  });

  it("GET /api lists every operation, in the table's order, with its description", async () => {
    const res = await stack.api("/api", { token: stack.freshUser().token() });
    expect(res.body.endpoints).toEqual(API_ROUTES.map(({ method, path, description }) => ({ method, path, description })));
  });

  it("GET /api/openapi.json documents every operation, and nothing else", async () => {
    const doc = (await stack.api("/api/openapi.json", { token: stack.freshUser().token() })).body;
    const documented = Object.entries(doc.paths as Record<string, Record<string, { summary: string }>>).flatMap(([p, ops]) =>
      Object.entries(ops).map(([method, op]) => ({ name: `${method.toUpperCase()} ${p}`, summary: op.summary })),
    );
    expect(documented.map((op) => op.name).sort()).toEqual(API_ROUTES.map(name).sort());
    for (const op of API_ROUTES) expect(doc.paths[op.path][op.method.toLowerCase()].summary, name(op)).toBe(op.description);
  });

  it("the MCP tools are the operations marked mcp, each once, plus those declared MCP-only; tools/list and the endpoint's description name them all", async () => {
    const names = MCP_TOOLS.map((op) => op.mcp.tool);
    expect(new Set(names).size, "one operation per tool").toBe(names.length);
    // Every REST operation with a tool is in the tool table; every other tool says it is MCP's alone.
    for (const op of API_ROUTES) if (op.mcp) expect(MCP_TOOLS, name(op)).toContain(op);
    for (const op of MCP_TOOLS) expect(API_ROUTES.includes(op as (typeof API_ROUTES)[number]) || (op as { mcpOnly?: true }).mcpOnly, op.mcp.tool).toBe(true);
    expect(MCP_TOOLS.filter((op) => "mcpOnly" in op).map((op) => op.mcp.tool).sort()).toEqual(["search_notes", "upload_attachment"]);
    const client = await connect(stack.freshUser().token());
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(names);
    // The MCP endpoint's own description names the same tools.
    const mcp = API_ROUTES.find((op) => op.path.endsWith("/mcp"))!;
    expect(mcp.description.match(/tools (.*)\.$/)![1]!.split(", ")).toEqual(names);
    // And docs/api.md's table of tools, in the same order.
    const docs = fs.readFileSync(path.join(ROOT, "docs", "api.md"), "utf8").split("\n### MCP\n")[1]!.split("\n### ")[0]!;
    expect([...docs.matchAll(/^\| `([a-z_]+)` \|/gm)].map((match) => match[1])).toEqual(names);
  });

  it("a server action runs only an operation whose definition opens it to the browser's session", async () => {
    const words = { signedOut: "signed out", fail: () => "failed" };
    expect(listTagsOperation.callers).toEqual(["token"]);
    await expect(runAction(listTagsOperation, {}, words)).rejects.toThrow("A server action may only run an operation open to the browser's session");
    expect(deleteTagOperation.callers).toContain("session");
  });
});

/** Every .ts/.tsx file under a folder of the repository. */
function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { recursive: true, encoding: "utf8" })
    .filter((file) => /\.tsx?$/.test(file) && !file.includes("generated"))
    .map((file) => path.join(dir, file));
}

describe("route paths", () => {
  // The identity service's endpoint (its client and its contract), not one of ours.
  const ELSEWHERE = new Set(["lib/identity/client.ts", "lib/identity/contract.ts"]);

  // The table's paths that code outside it calls or builds on (the browser's fetches, the sign-in routes, the dev banner), with no imports.
  const TABLE_PATHS = path.join("lib", "http", "paths.ts");

  it("no /api path is written in app/, components/, lib/ or scripts/ outside the operation table (lib/operations, lib/api, lib/http/paths.ts)", () => {
    const found: string[] = [];
    for (const file of ["app", "components", "lib", "scripts"].flatMap(sourceFiles)) {
      if (["operations", "api"].some((folder) => file.startsWith(path.join("lib", folder) + path.sep)) || file === TABLE_PATHS || ELSEWHERE.has(file)) continue;
      const text = fs.readFileSync(path.join(ROOT, file), "utf8");
      // In a string, or after an interpolation (`${base}/api/…`, JSX's {base}/api).
      for (const match of text.matchAll(/["'`}]\/api(?=[/"'`?<$]|$)[^"'`\s<]*/gm)) found.push(`${file}: ${match[0]}`);
    }
    expect(found).toEqual([]);
  });
});
