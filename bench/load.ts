import { seededRandom, generateNotes } from "./generate";

/** What both a `pg` pool and PGlite offer: enough to load and query. */
export type Sql = { query<R = Record<string, unknown>>(text: string, params?: unknown[]): Promise<{ rows: R[] }> };

const BATCH = 2000;

/** A v4-shaped UUID from the seeded generator, so ids (and tag links) repeat run to run. */
function seededUuid(random: () => number): string {
  const hex: string[] = [];
  for (let i = 0; i < 32; i += 1) hex.push(Math.floor(random() * 16).toString(16));
  hex[12] = "4";
  hex[16] = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  const s = hex.join("");
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}

async function createUser(sql: Sql, email: string): Promise<string> {
  const { rows } = await sql.query<{ id: string }>(
    "INSERT INTO users (email, name, email_verified) VALUES ($1, $2, true) RETURNING id",
    [email, email.split("@")[0]],
  );
  return rows[0]!.id;
}

/**
 * Secondary indexes are dropped during the bulk load and rebuilt after it:
 * building a trigram index once is far faster than maintaining it per row.
 */
async function withIndexesDeferred(sql: Sql, load: () => Promise<void>): Promise<void> {
  const { rows } = await sql.query<{ indexname: string; indexdef: string }>(
    "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' AND tablename IN ('notes', 'note_tags', 'search_vocabulary') AND indexname NOT LIKE '%_pkey'",
  );
  for (const row of rows) await sql.query(`DROP INDEX "${row.indexname}"`);
  await load();
  for (const row of rows) await sql.query(row.indexdef);
  // As autovacuum would: statistics, and the visibility map that lets counts skip heap pages.
  await sql.query("VACUUM ANALYZE");
}

/** Inserts one user's notes in multi-row batches; about 30% get one to three of the user's tags. */
async function loadUserNotes(sql: Sql, options: { userId: string; count: number; seed: number; tags: string[] }): Promise<void> {
  const random = seededRandom(options.seed ^ 0x5bd1e995);
  let batch: { id: string; title: string; text: string; createdAt: Date; updatedAt: Date }[] = [];
  let links: [string, string][] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    // Plain SQL: the database's triggers fill the search columns and the vocabulary.
    await sql.query(
      `INSERT INTO notes (id, user_id, title, content, content_text, created_at, updated_at)
       SELECT x.id, $1::uuid, x.title,
              jsonb_build_array(jsonb_build_object('type', 'paragraph', 'content', jsonb_build_array(jsonb_build_object('type', 'text', 'text', x.body, 'styles', '{}'::jsonb)))),
              x.body, x.created_at, x.updated_at
       FROM unnest($2::uuid[], $3::text[], $4::text[], $5::timestamptz[], $6::timestamptz[])
         AS x(id, title, body, created_at, updated_at)`,
      [
        options.userId,
        batch.map((n) => n.id),
        batch.map((n) => n.title),
        batch.map((n) => n.text),
        batch.map((n) => n.createdAt.toISOString()),
        batch.map((n) => n.updatedAt.toISOString()),
      ],
    );
    if (links.length > 0) {
      await sql.query("INSERT INTO note_tags (note_id, tag_id) SELECT * FROM unnest($1::uuid[], $2::uuid[]) ON CONFLICT DO NOTHING", [
        links.map((l) => l[0]),
        links.map((l) => l[1]),
      ]);
    }
    batch = [];
    links = [];
  };
  for (const note of generateNotes({ seed: options.seed, count: options.count })) {
    const id = seededUuid(random);
    batch.push({
      id,
      title: note.title,
      text: note.contentText,
      createdAt: note.createdAt,
      updatedAt: note.updatedAt,
    });
    if (options.tags.length > 0 && random() < 0.3) {
      const n = 1 + Math.floor(random() * 3);
      for (let i = 0; i < n; i += 1) links.push([id, options.tags[Math.floor(random() * options.tags.length)]!]);
    }
    if (batch.length >= BATCH) await flush();
  }
  await flush();
}

export type MeasuredUser = { email: string; notes: number };
export type LoadedUser = { email: string; userId: string; tagIds: string[]; noteIds: string[] };

/**
 * Loads the measured users (each with 20 tags) and enough other users to reach
 * `totalNotes`, with secondary indexes built once at the end.
 */
export async function loadBenchData(
  sql: Sql,
  plan: { users: MeasuredUser[]; totalNotes: number; seed: number; perOtherUser?: number },
  log: (line: string) => void = () => {},
): Promise<LoadedUser[]> {
  const loaded: LoadedUser[] = [];
  const started = Date.now();
  await withIndexesDeferred(sql, async () => {
    for (const [index, user] of plan.users.entries()) {
      const userId = await createUser(sql, user.email);
      const tagIds: string[] = [];
      for (let i = 0; i < 20; i += 1) {
        const { rows } = await sql.query<{ id: string }>("INSERT INTO tags (user_id, name) VALUES ($1, $2) RETURNING id", [userId, `topic-${i}`]);
        tagIds.push(rows[0]!.id);
      }
      await loadUserNotes(sql, { userId, count: user.notes, seed: plan.seed + index, tags: tagIds });
      log(`loaded ${user.notes} notes for ${user.email} (${seconds(started)})`);
      loaded.push({ email: user.email, userId, tagIds, noteIds: [] });
    }
    const measured = plan.users.reduce((sum, user) => sum + user.notes, 0);
    const perOther = plan.perOtherUser ?? 100_000;
    let others = 0;
    for (let left = plan.totalNotes - measured, i = 1; left > 0; left -= perOther, i += 1) {
      const otherId = await createUser(sql, `other-${i}@example.com`);
      await loadUserNotes(sql, { userId: otherId, count: Math.min(perOther, left), seed: plan.seed + 1000 + i, tags: [] });
      others += Math.min(perOther, left);
      log(`loaded ${others} notes of other users (${seconds(started)})`);
    }
  });
  log(`indexes built (${seconds(started)})`);
  for (const user of loaded) {
    const { rows } = await sql.query<{ id: string }>("SELECT id FROM notes WHERE user_id = $1 ORDER BY id LIMIT 200", [user.userId]);
    user.noteIds = rows.map((row) => row.id);
  }
  return loaded;
}

const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;
