import { Prisma } from "@/lib/db/client";

// The wire form of a row, built from one list of its fields both in
// TypeScript (toWire) and in SQL (jsonObjectSql), so the two cannot drift
// apart in names, order or formats (lib/tags/serialize.ts, lib/notes/serialize.ts).

/**
 * One field of a wire object: its JSON key (also the Prisma field), its SQL
 * column, and whether it is a timestamp (written exactly as toISOString
 * writes it, in both serializers).
 */
export type WireField = { readonly key: string; readonly column: string; readonly timestamp?: true };

/** A row holding `fields`, as Prisma reads it. */
export type Row<F extends readonly WireField[]> = { [K in F[number]["key"]]: Extract<F[number], { key: K }> extends { timestamp: true } ? Date : unknown };

/** The Prisma `select` of `fields`. */
export const selectOf = <F extends readonly WireField[]>(fields: F) =>
  Object.fromEntries(fields.map((field) => [field.key, true])) as { [K in F[number]["key"]]: true };

export function toWire(fields: readonly WireField[], row: Record<string, unknown>): Record<string, unknown> {
  const wire: Record<string, unknown> = {};
  for (const field of fields) wire[field.key] = field.timestamp ? (row[field.key] as Date).toISOString() : row[field.key];
  return wire;
}

/**
 * JSON text the database built (json_build_object writes `"id" : …`, jsonb
 * `"id": …`) in the one form every answer has, JSON.stringify's: the same
 * bytes whether a note comes from a list, a read, a write or a replay. Keys
 * keep their order. About 30 µs a KB here, a small part of a read's time.
 */
export const compactJson = (json: string): string => JSON.stringify(JSON.parse(json));

// Timestamps exactly as Date.prototype.toISOString writes them.
export const isoTimestamp = (column: Prisma.Sql) => Prisma.sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

// Keys and columns are the constants of a field list, never input: spliced in as SQL text.
export const jsonObjectSql = (fields: readonly WireField[], alias: string, ...extra: Prisma.Sql[]) =>
  Prisma.sql`json_build_object(${Prisma.join([
    ...fields.map((field) => {
      const column = Prisma.raw(`${alias}.${field.column}`);
      return Prisma.sql`${Prisma.raw(`'${field.key}'`)}, ${field.timestamp ? isoTimestamp(column) : column}`;
    }),
    ...extra,
  ])})`;
