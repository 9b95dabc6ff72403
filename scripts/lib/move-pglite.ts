import fs from "node:fs";
import pg from "pg";
import { migrateDatabase } from "@/lib/db/migrate";
import { openPglite } from "@/lib/db/pglite";

/** Rows per round trip: a note can be a few hundred KB of JSON. */
const BATCH_ROWS = 100;
const MIGRATIONS_TABLE = "_prisma_migrations";

/**
 * Copies every row of a PGlite database (the embedded database of earlier
 * releases) into an empty PostgreSQL database migrated to the same schema:
 * both are brought to the latest migration first, then each table's rows go
 * over as they are, with triggers and foreign-key checks off for the copy
 * (`session_replication_role = replica`), so counters, revisions, the change
 * feed and attachments arrive exactly as stored rather than written again.
 * One transaction on the target: a failure leaves it as it was. Returns the
 * rows copied per table, each checked against the count in the source.
 * Needs a superuser connection (the embedded server's own).
 */
export async function copyPgliteInto(pgliteDir: string, postgresUrl: string): Promise<Record<string, number>> {
  const pglite = await openPglite(pgliteDir);
  const client = new pg.Client({ connectionString: postgresUrl });
  try {
    await migrateDatabase({ pglite });
    await client.connect();
    const tables = (
      await client.query<{ name: string }>(
        "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' AND tablename <> $1 ORDER BY tablename",
        [MIGRATIONS_TABLE],
      )
    ).rows.map((row) => row.name);
    await client.query("BEGIN");
    const { rows: users } = await client.query<{ n: number }>("SELECT count(*)::int AS n FROM users");
    if (users[0]!.n > 0) throw new Error("the new database already has accounts; the old one is not copied over them");
    await client.query("SET LOCAL session_replication_role = replica");
    // What the migrations themselves wrote (the search folding table) comes over with the rest.
    await client.query(`TRUNCATE ${tables.map(quoteIdent).join(", ")}`);
    const copied: Record<string, number> = {};
    for (const table of tables) copied[table] = await copyTable(pglite, client, table);
    await client.query("COMMIT");
    return copied;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    await client.end().catch(() => undefined);
    await pglite.close();
  }
}

async function copyTable(pglite: Awaited<ReturnType<typeof openPglite>>, client: pg.Client, table: string): Promise<number> {
  const columns = (
    await client.query<{ name: string }>(
      "SELECT attname AS name FROM pg_attribute WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped AND attgenerated = '' ORDER BY attnum",
      [quoteIdent(table)],
    )
  ).rows.map((row) => quoteIdent(row.name));
  const list = columns.join(", ");
  const insert = `INSERT INTO ${quoteIdent(table)} (${list}) SELECT ${list} FROM json_populate_recordset(NULL::${quoteIdent(table)}, $1::json)`;
  let copied = 0;
  await pglite.transaction(async (tx) => {
    await tx.query(`DECLARE rows_to_copy NO SCROLL CURSOR FOR SELECT row_to_json(t)::text AS row FROM ${quoteIdent(table)} t`);
    for (;;) {
      const { rows } = await tx.query<{ row: string }>(`FETCH ${BATCH_ROWS} FROM rows_to_copy`);
      if (rows.length === 0) break;
      await client.query(insert, [`[${rows.map((r) => r.row).join(",")}]`]);
      copied += rows.length;
    }
  });
  const source = (await pglite.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${quoteIdent(table)}`)).rows[0]!.n;
  const target = (await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${quoteIdent(table)}`)).rows[0]!.n;
  if (source !== copied || target !== copied) throw new Error(`${table}: ${source} rows in the old database, ${copied} copied, ${target} in the new one`);
  return copied;
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Whether `dir` holds a PGlite database (its cluster's version file). */
export function isPgliteDir(dir: string): boolean {
  return fs.existsSync(`${dir}/PG_VERSION`);
}
