/**
 * Accounts whose write transactions this process has just committed: the
 * change feed's long polls (lib/changes/queries.ts) wake at once on a write
 * made here, and check the database at an interval for writes made by other
 * instances or by SQL.
 */
type Listener = () => void;

const listeners = new Map<string, Set<Listener>>();

/** Calls `listener` after each commit of a write to this account; returns the unsubscribe. */
export function onAccountWrite(userId: string, listener: Listener): () => void {
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
  for (const listener of listeners.get(userId) ?? []) listener();
}
