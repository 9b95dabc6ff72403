import { createHash } from "node:crypto";
import { Prisma, queryRows, type Db, type Transaction } from "@/lib/db/client";
import { ownedBy } from "@/lib/db/owner";
import { writeTransaction } from "@/lib/db/transaction";
import { AppError, jsonTextResponse } from "@/lib/errors";
import type { RevisionAuthor } from "@/lib/db/author";

const IDEMPOTENCY_KEY_HEADER = "Idempotency-Key";
/** Set on a response that repeats the stored first response of its key. */
const IDEMPOTENT_REPLAYED_HEADER = "Idempotent-Replayed";
/** How long a key holds its first response. */
const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

const KEY_PATTERN = /^[\x20-\x7e]{1,255}$/;

/** The Idempotency-Key header, or null without one; 400 when it is not 1 to 255 printable characters. */
export function readIdempotencyKey(req: Request): string | null {
  const key = req.headers.get(IDEMPOTENCY_KEY_HEADER);
  if (key === null) return null;
  if (!KEY_PATTERN.test(key)) throw new AppError("INVALID_IDEMPOTENCY_KEY");
  return key;
}

/** A response as stored for replay. */
type StoredResponse = { status: number; body: unknown; headers?: Record<string, string> };

export type IdempotentOptions = {
  userId: string;
  /** The operation, e.g. "POST /api/notes": one key may serve each operation once. */
  scope: string;
  /** From readIdempotencyKey; null runs `perform` in a transaction of its own, with no key. */
  key: string | null;
  /** The validated request; the same key with a different request is refused. */
  request: unknown;
  /** Who writes: the revisions `perform` makes record it. */
  author?: RevisionAuthor;
  /**
   * Does the work and describes the response, in the transaction that claims
   * the key: the resource and the stored response are committed together or
   * not at all.
   */
  perform: (tx: Transaction) => Promise<StoredResponse>;
};

/** The key was claimed by a request that committed first: replay its response. */
class KeyTaken extends Error {}

/**
 * Runs a create at most once per (user, operation, key) within 24 hours and
 * answers a repeat with the first response, marked Idempotent-Replayed. The
 * claim is an INSERT … ON CONFLICT DO NOTHING on the table's unique key in the
 * same transaction as the create: of concurrent first uses, PostgreSQL lets
 * one insert and makes the others wait for it, then see its row. Only 2xx
 * responses are kept: anything thrown rolls the claim back with the create.
 */
export async function idempotent(db: Db, options: IdempotentOptions): Promise<Response> {
  const { key, perform } = options;
  // The creates write the account's counters: its write lock first (see writeTransaction).
  const lock = { lockUserId: options.userId, author: options.author };
  if (key === null) return toResponse(toStoredBody(await writeTransaction(db, perform, lock)), false);

  const requestHash = hashRequest(options.request);
  const where = { userId: options.userId, scope: options.scope, key };
  // A second attempt covers the rare claim that expired between the two reads.
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const stored = await db.idempotencyKey.findUnique({ where: { userId_scope_key: where } });
    if (stored && stored.expiresAt > new Date()) return replay(stored, requestHash);
    try {
      const response = await writeTransaction(
        db,
        async (tx) => {
          const now = new Date();
          const keyed = Prisma.sql`${ownedBy(where.userId)} AND scope = ${where.scope} AND key = ${where.key}`;
          // Expired keys are replaced, lazily, on their next use.
          await queryRows(tx, Prisma.sql`DELETE FROM idempotency_keys WHERE ${keyed} AND expires_at <= ${now}`);
          const claimed = await queryRows(tx, Prisma.sql`
            INSERT INTO idempotency_keys (user_id, scope, key, request_hash, status, body, created_at, expires_at)
            VALUES (${where.userId}::uuid, ${where.scope}, ${where.key}, ${requestHash}, 0, '{}'::jsonb, ${now}, ${new Date(now.getTime() + IDEMPOTENCY_TTL_MS)})
            ON CONFLICT (user_id, scope, key) DO NOTHING
            RETURNING 1`);
          if (claimed.length === 0) throw new KeyTaken();
          const result = toStoredBody(await perform(tx));
          if (result.status >= 200 && result.status < 300) {
            const { status: _status, ...stored } = result;
            await queryRows(tx, Prisma.sql`UPDATE idempotency_keys SET status = ${result.status}, body = ${JSON.stringify(stored)}::jsonb WHERE ${keyed}`);
          } else {
            await queryRows(tx, Prisma.sql`DELETE FROM idempotency_keys WHERE ${keyed}`);
          }
          return result;
        },
        lock,
      );
      return toResponse(response, false);
    } catch (err) {
      if (!(err instanceof KeyTaken)) throw err;
    }
  }
  const stored = await db.idempotencyKey.findUnique({ where: { userId_scope_key: where } });
  if (!stored) throw new AppError("IDEMPOTENCY_KEY_BUSY");
  return replay(stored, requestHash);
}

/** SHA-256 of the request in a canonical JSON form, so key order and spacing do not matter. */
function hashRequest(request: unknown): string {
  return createHash("sha256").update(canonicalJson(request)).digest("hex");
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([name, item]) => `${JSON.stringify(name)}:${canonicalJson(item)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

// The body column holds the response's JSON as the text it was sent as (jsonb
// would reorder its keys) and the headers worth repeating (a note's ETag), so
// a replay is the first response, byte for byte.
type StoredBody = { status: number; json: string; headers: Record<string, string> };

function toStoredBody(response: StoredResponse): StoredBody {
  return { status: response.status, json: JSON.stringify(response.body), headers: response.headers ?? {} };
}

function replay(stored: { status: number; body: unknown; requestHash: string }, requestHash: string): Response {
  if (stored.requestHash !== requestHash) {
    throw new AppError("IDEMPOTENCY_KEY_REUSED");
  }
  const kept = stored.body as { json?: string; body?: unknown; headers?: Record<string, string> };
  // A key stored before the text was kept (for at most a day after the change) holds the body itself.
  const json = kept.json ?? (kept.body === undefined ? undefined : JSON.stringify(kept.body));
  if (json === undefined) throw new Error("An Idempotency-Key's stored response has no body");
  return toResponse({ status: stored.status, json, headers: kept.headers ?? {} }, true);
}

function toResponse(response: StoredBody, replayed: boolean): Response {
  return jsonTextResponse(response.json, {
    status: response.status,
    headers: { ...response.headers, ...(replayed ? { [IDEMPOTENT_REPLAYED_HEADER]: "true" } : {}) },
  });
}
