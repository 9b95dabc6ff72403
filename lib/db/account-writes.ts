/**
 * An account's writes in this process: one at a time (accountWrite in
 * lib/db/transaction.ts queues each with its conversion), and the change
 * feed's long polls (lib/changes/queries.ts), which wake at once on a write
 * committed here and check the database at an interval for writes made by
 * other instances or by SQL.
 */
type Listener = () => void;

type AccountWrites = {
  listeners: Map<string, Set<Listener>>;
  /** Per account, a promise that settles when the last write queued so far has finished. */
  queues: Map<string, Promise<void>>;
};
const globalKey = Symbol.for("notes.accountWrites");

function state(): AccountWrites {
  // Next.js may load this module once per route bundle: one state per process.
  const store = globalThis as typeof globalThis & { [globalKey]?: AccountWrites };
  return (store[globalKey] ??= { listeners: new Map(), queues: new Map() });
}

/** Calls `listener` after each commit of a write to this account; returns the unsubscribe. */
export function onAccountWrite(userId: string, listener: Listener): () => void {
  const { listeners } = state();
  let set = listeners.get(userId);
  if (!set) listeners.set(userId, (set = new Set()));
  set.add(listener);
  return () => {
    set.delete(listener);
    if (set.size === 0) listeners.delete(userId);
  };
}

/** Called by writeTransaction once a transaction holding the account's write lock has committed. */
export function accountWritten(userId: string): void {
  for (const listener of state().listeners.get(userId) ?? []) listener();
}

/** Waiting in an account's queue took longer than its bound; nothing was written. */
export class AccountQueueTimeout extends Error {
  constructor(userId: string, timeoutMs: number) {
    super(`account ${userId}: its earlier writes in this process held this one past ${timeoutMs} ms`);
  }
}

/**
 * Runs `work` once every write of the account queued before it has finished,
 * in order; throws AccountQueueTimeout, without running it, when that takes
 * longer than `timeoutMs`. The writes after one that gave up keep their places.
 */
export async function inAccountQueue<T>(userId: string, timeoutMs: number, work: () => Promise<T>): Promise<T> {
  const { queues } = state();
  const before = queues.get(userId) ?? Promise.resolve();
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  const tail = before.then(() => finished);
  queues.set(userId, tail);
  try {
    await turnWithin(before, timeoutMs, () => new AccountQueueTimeout(userId, timeoutMs));
    return await work();
  } finally {
    finish();
    if (queues.get(userId) === tail) queues.delete(userId);
  }
}

/** Waits for `turn`, or throws what `timedOut` makes after `timeoutMs`. */
async function turnWithin(turn: Promise<void>, timeoutMs: number, timedOut: () => Error): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([turn, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(timedOut()), timeoutMs)))]);
  } finally {
    clearTimeout(timer);
  }
}
