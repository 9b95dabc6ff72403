// npx tsx --conditions=react-server scripts/api-reference.ts
// (react-server: the route table's modules import `server-only`, which loads
// only under that condition, as on the server)
// Writes the endpoint table of docs/api.md (between its api-reference markers)
// from the route table, lib/api/routes.ts, which also makes the OpenAPI
// document and the `GET /api` index. tests/unit/api-reference.test.ts fails
// when the page and the route table differ.
import fs from "node:fs";
import path from "node:path";
import { API_ROUTES } from "@/lib/api/routes";

export const API_DOC = path.join(import.meta.dirname, "..", "docs", "api.md");
const START = "<!-- api-reference:start (written by npx tsx --conditions=react-server scripts/api-reference.ts from lib/api/routes.ts; do not edit by hand) -->";
const END = "<!-- api-reference:end -->";

const cell = (text: string) => text.replaceAll("|", "\\|").replaceAll("\n", " ");

/** The endpoint table, one row per route of the route table, in its order. */
function referenceTable(): string {
  const rows = API_ROUTES.map((route) => {
    const query = "query" in route && route.query ? Object.keys(route.query.shape).map((name) => `\`${name}\``).join(", ") : "";
    const statuses = Object.keys(route.responses).join(", ");
    return `| ${route.method} | \`${route.path}\` | ${query} | ${statuses} | ${cell(route.description)} |`;
  });
  return ["| Method | Path | Query | Statuses of its own | What it does |", "|---|---|---|---|---|", ...rows].join("\n");
}

/** `markdown` with the text between the markers replaced by the current table. */
export function withReference(markdown: string): string {
  const start = markdown.indexOf(START);
  const end = markdown.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${API_DOC} has no ${START} … ${END} section`);
  return `${markdown.slice(0, start + START.length)}\n${referenceTable()}\n${markdown.slice(end)}`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  fs.writeFileSync(API_DOC, withReference(fs.readFileSync(API_DOC, "utf8")));
}
