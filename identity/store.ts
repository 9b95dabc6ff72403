import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { withFileLock } from "../lib/files/lock-file";
import { ensurePrivateDir, writeFileAtomic } from "./files";

/**
 * The identity service's state: one JSON file in the data dir, replaced
 * atomically on every change. Mutations re-read the file under an
 * in-process mutex plus a cross-process lock file, and check the revision
 * before writing, so the server and any number of CLI runs never lose a
 * write. Reads are served from memory and reloaded when the file changes.
 */

const STATE_FILE = "state.json";
const LOCK_FILE = "state.lock";

const ZApiKeyRecordSchema = z.object({
  id: z.string(),
  hash: z.string(),
  createdAt: z.string(),
  revokedAt: z.string().nullable(),
});

const ZUserRecordSchema = z.object({
  id: z.string(),
  email: z.string(),
  createdAt: z.string(),
  apiKeys: z.array(ZApiKeyRecordSchema),
});

const ZPartnerKeyRecordSchema = z.object({
  id: z.string(),
  email: z.string(),
  hash: z.string(),
  createdAt: z.string(),
  revokedAt: z.string().nullable(),
});

const ZIdentityStateSchema = z.object({
  version: z.literal(1),
  revision: z.number().int().nonnegative(),
  users: z.array(ZUserRecordSchema),
  partnerKeys: z.array(ZPartnerKeyRecordSchema),
});

export type TApiKeyRecord = z.infer<typeof ZApiKeyRecordSchema>;
export type TUserRecord = z.infer<typeof ZUserRecordSchema>;
export type TPartnerKeyRecord = z.infer<typeof ZPartnerKeyRecordSchema>;
export type TIdentityState = z.infer<typeof ZIdentityStateSchema>;

/** Read-side view of the state with lookup maps keyed by id and key hash. */
export type TStateIndex = {
  state: TIdentityState;
  usersById: Map<string, TUserRecord>;
  userKeysByHash: Map<string, { user: TUserRecord; key: TApiKeyRecord }>;
  partnerKeysByHash: Map<string, TPartnerKeyRecord>;
};

function emptyState(): TIdentityState {
  return { version: 1, revision: 0, users: [], partnerKeys: [] };
}

function indexState(state: TIdentityState): TStateIndex {
  const usersById = new Map<string, TUserRecord>();
  const userKeysByHash = new Map<string, { user: TUserRecord; key: TApiKeyRecord }>();
  for (const user of state.users) {
    usersById.set(user.id, user);
    for (const key of user.apiKeys) userKeysByHash.set(key.hash, { user, key });
  }
  const partnerKeysByHash = new Map(state.partnerKeys.map((key) => [key.hash, key]));
  return { state, usersById, userKeysByHash, partnerKeysByHash };
}

function parseState(text: string, file: string): TIdentityState {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // JSON.parse's message quotes the input; keep file content out of errors.
    throw new Error(`Identity state file ${file} is not valid JSON`);
  }
  const parsed = ZIdentityStateSchema.safeParse(json);
  if (!parsed.success) throw new Error(`Identity state file ${file} has an unexpected shape`);
  return parsed.data;
}

/** Identity of a file version: any replace changes the inode, any write the times. */
function fileSignature(stat: fs.BigIntStats): string {
  return `${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`;
}

const MISSING = "missing";

// Serialises mutations of one data dir across all store instances in this process.
const processQueues = new Map<string, Promise<unknown>>();

async function withProcessMutex<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const previous = processQueues.get(key) ?? Promise.resolve();
  const run = previous.then(fn, fn);
  const settled = run.catch(() => undefined);
  processQueues.set(key, settled);
  try {
    return await run;
  } finally {
    if (processQueues.get(key) === settled) processQueues.delete(key);
  }
}

class ConcurrentWriteError extends Error {}

export class IdentityStore {
  readonly dataDir: string;
  readonly statePath: string;
  readonly lockPath: string;
  private cache: { signature: string; index: TStateIndex } | undefined;
  private loading: Promise<{ signature: string; index: TStateIndex }> | undefined;

  private constructor(dataDir: string) {
    this.dataDir = path.resolve(dataDir);
    this.statePath = path.join(this.dataDir, STATE_FILE);
    this.lockPath = path.join(this.dataDir, LOCK_FILE);
  }

  /** Opens (creating if needed, mode 0700) the data dir. */
  static async open(dataDir: string): Promise<IdentityStore> {
    const store = new IdentityStore(dataDir);
    await ensurePrivateDir(store.dataDir);
    return store;
  }

  private currentSignature(): string {
    const stat = fs.statSync(this.statePath, { bigint: true, throwIfNoEntry: false });
    return stat ? fileSignature(stat) : MISSING;
  }

  private async load(): Promise<{ signature: string; index: TStateIndex }> {
    let handle: fsp.FileHandle;
    try {
      handle = await fsp.open(this.statePath, "r");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return { signature: MISSING, index: indexState(emptyState()) };
      throw err;
    }
    try {
      // Signature and content come from the same open file, so they agree.
      const signature = fileSignature(await handle.stat({ bigint: true }));
      const state = parseState(await handle.readFile("utf8"), this.statePath);
      return { signature, index: indexState(state) };
    } finally {
      await handle.close();
    }
  }

  /**
   * The current state, as of no earlier than this call: a change written by
   * another process before the call is always seen.
   */
  async snapshot(): Promise<TStateIndex> {
    const signature = this.currentSignature();
    if (this.cache?.signature === signature) return this.cache.index;
    for (;;) {
      // A load already under way may have opened an older file; wait for it, then check.
      const loading = (this.loading ??= this.load().finally(() => {
        this.loading = undefined;
      }));
      const loaded = await loading;
      this.cache = loaded;
      if (loaded.signature === signature || loaded.signature === this.currentSignature()) return loaded.index;
    }
  }

  private async readFresh(): Promise<TIdentityState> {
    try {
      return parseState(await fsp.readFile(this.statePath, "utf8"), this.statePath);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return emptyState();
      throw err;
    }
  }

  /**
   * Applies `change` to the latest state and persists it. `change` may run
   * more than once, so it must only touch the draft it is given; if it
   * throws, nothing is written.
   */
  async mutate<T>(change: (draft: TIdentityState) => T): Promise<T> {
    return withProcessMutex(this.statePath, () =>
      withFileLock(this.lockPath, async () => {
        for (let attempt = 0; ; attempt += 1) {
          const draft = await this.readFresh();
          const revision = draft.revision;
          const result = change(draft);
          draft.revision = revision + 1;
          // Compare-and-swap guard: the lock should make this impossible, but a
          // lock wrongly judged stale must not turn into a lost write.
          if ((await this.readFresh()).revision !== revision) {
            if (attempt < 3) continue;
            throw new ConcurrentWriteError(`Identity state ${this.statePath} keeps changing underneath; try again`);
          }
          await writeFileAtomic(this.statePath, `${JSON.stringify(draft, null, 2)}\n`, 0o600);
          return result;
        }
      }),
    );
  }
}
