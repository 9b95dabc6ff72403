import "server-only";
import { getDb } from "@/lib/db/client";

/** How long the health check waits for the database: a load balancer's probe must not hang. */
const HEALTH_TIMEOUT_MS = 2000;

/** Resolves when the database answers a trivial query within the timeout; rejects otherwise. */
export async function checkDatabase(timeoutMs = HEALTH_TIMEOUT_MS): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Database did not answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([getDb().then((db) => db.$queryRaw`SELECT 1`), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
