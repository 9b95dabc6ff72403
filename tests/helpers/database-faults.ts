import pg from "pg";
import { expect } from "vitest";
import type { ApiResponse } from "./api-client";

/** The body of a 503 from a database fault: a 5xx names the request's id, so a report leads to the log line. */
export const UNAVAILABLE = { error: "Service temporarily unavailable — retry shortly", requestId: expect.any(String) };

/** A 503 in the contract's shape, telling the client to retry after a second. */
export function expectUnavailable(res: ApiResponse): void {
  expect(res.status, res.text).toBe(503);
  expect(res.body).toEqual(UNAVAILABLE);
  expect(res.headers.get("retry-after")).toBe("1");
}

/**
 * Runs `fn` while another session of the PostgreSQL database at `url` holds
 * an ACCESS EXCLUSIVE lock on `table`; the lock goes only after `fn` settled,
 * so what `fn` saw happened under the lock.
 */
export async function whileTableLocked<T>(url: string, table: string, fn: () => Promise<T>): Promise<T> {
  const locker = new pg.Client({ connectionString: url });
  await locker.connect();
  try {
    await locker.query("BEGIN");
    await locker.query(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
    return await fn();
  } finally {
    await locker.query("ROLLBACK");
    await locker.end();
  }
}
