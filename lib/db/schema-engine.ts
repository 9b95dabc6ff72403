// Migrations run through Prisma's schema engine compiled to WebAssembly, driven
// over a driver adapter, because Prisma's CLI (`prisma migrate`) downloads a
// native engine binary on first use, which cannot happen offline or in the
// bundled server. This module can go once the CLI runs offline (it ships a
// WASM schema engine, or its engine comes with the npm package).
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { messages, type PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import {
  bindMigrationAwareSqlAdapterFactory,
  DriverAdapterError,
  type SqlDriverAdapter,
  type SqlMigrationAwareDriverAdapterFactory,
} from "@prisma/driver-adapter-utils";
import * as engineBindings from "@prisma/schema-engine-wasm/schema_engine_bg";
import type { SchemaEngine } from "@prisma/schema-engine-wasm/schema_engine_bg";
import pg from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { openPglite } from "@/lib/db/pglite";

export type { SchemaEngine };

/**
 * The Prisma release and the schema-engine WASM build migrations run with,
 * pinned together in package.json so that neither moves alone. The build is
 * the one compiled from the release's own engine (its version is the
 * release's @prisma/engines-version); tests/db/engine-pair.test.ts fails when
 * the installed pair differs from this record or the engines differ.
 */
export const ENGINE_PAIR = {
  prisma: "7.10.0",
  schemaEngineWasm: "7.10.0-4.0edf323efd1d98336f3f0a68684b56f689b900d3",
} as const;

let engineModuleReady: Promise<void> | undefined;

const CHAR_OID = 18;
const TEXT_OID = 25;

/**
 * Prisma's schema engine, compiled to WebAssembly, runs migrations through a
 * driver adapter (no native engine binary is needed). Frees the engine and
 * disposes every connection it opened once `work` settles.
 */
export async function withSchemaEngine<T>(
  options: { factory: SqlMigrationAwareDriverAdapterFactory; schemaFiles: [path: string, content: string][] },
  work: (engine: SchemaEngine) => Promise<T>,
): Promise<T> {
  await loadEngineModule();
  const tracked = trackConnections(options.factory);
  let engine: SchemaEngine | undefined;
  engineState.active += 1;
  try {
    engine = await engineBindings.SchemaEngine.new(
      { datamodels: options.schemaFiles },
      ignoreEngineLog,
      bindMigrationAwareSqlAdapterFactory(tracked.factory),
    );
    return await work(engine);
  } catch (error) {
    throw toEngineError(error);
  } finally {
    engine?.free();
    await tracked.disposeAll();
    engineState.active -= 1;
    if (engineState.active === 0) clearEngineTimers();
  }
}

// The engine sets timers it never clears (a 10 s one per migration), which
// kept every process that migrated alive for 10 s after its work was done (a
// script, the test runner). Once no engine is at work, none of them matters.
// Kept on globalThis: a reloaded copy of this module shares the engine (and
// its timers) with the copy that started it.
const engineState = ((globalThis as typeof globalThis & { [key: symbol]: unknown })[Symbol.for("notes.schemaEngine")] ??= {
  active: 0,
  timers: new Set<ReturnType<typeof setTimeout>>(),
}) as { active: number; timers: Set<ReturnType<typeof setTimeout>> };

function clearEngineTimers(): void {
  for (const timer of engineState.timers) clearTimeout(timer);
  engineState.timers.clear();
}

/** The engine's imports, with its setTimeout tracked (it has no clearTimeout). */
function engineImports(): WebAssembly.ModuleImports {
  const imports: WebAssembly.ModuleImports = { ...(engineBindings as unknown as WebAssembly.ModuleImports) };
  for (const name of Object.keys(imports).filter((key) => key.startsWith("__wbg_setTimeout_"))) {
    imports[name] = (callback: () => void, ms: number) => {
      const timer = setTimeout(() => {
        engineState.timers.delete(timer);
        callback();
      }, ms >>> 0);
      engineState.timers.add(timer);
      return timer;
    };
  }
  return imports;
}

// The engine logs JSON lines about its own progress; commands report through their results and errors.
function ignoreEngineLog(): void {}

// The package's ESM entry imports the .wasm file as a module, which Node 22
// does not do without a flag, so the bytes are instantiated here the way that entry would.
function loadEngineModule(): Promise<void> {
  engineModuleReady ??= instantiateEngine().catch((error: unknown) => {
    engineModuleReady = undefined;
    throw error;
  });
  return engineModuleReady;
}

async function instantiateEngine(): Promise<void> {
  if (isEngineInstantiated()) return;
  const bytes = await fs.promises.readFile(resolveEngineWasm());
  const { instance } = await WebAssembly.instantiate(bytes, { "./schema_engine_bg.js": engineImports() });
  engineBindings.__wbg_set_wasm(instance.exports);
  (instance.exports.__wbindgen_start as () => void)();
}

// A reloaded copy of this module may share the bindings with one that already
// started the engine; starting it twice would swap the memory under it.
function isEngineInstantiated(): boolean {
  try {
    engineBindings.version();
    return true;
  } catch {
    return false;
  }
}

// Looked up from this file first; a server bundle may have moved it away from
// node_modules, so the working directory (the project root) is the fallback.
function resolveEngineWasm(): string {
  const bindings = "@prisma/schema-engine-wasm/schema_engine_bg";
  const bases = [import.meta.url, path.join(/*turbopackIgnore: true*/ process.cwd(), "package.json")];
  for (const base of bases) {
    try {
      const bindingsPath = createRequire(base).resolve(bindings);
      return path.join(path.dirname(bindingsPath), "schema_engine_bg.wasm");
    } catch {
      // try the next base
    }
  }
  throw new Error(`Cannot find ${bindings}; is it installed?`);
}

/** The engine's adapter for an open PGlite; its shadow database is a fresh in-memory PGlite. */
export function pgliteAdapterFactory(pglite: PGlite): SqlMigrationAwareDriverAdapterFactory {
  const base = new PrismaPGlite(pglite);
  return {
    provider: base.provider,
    adapterName: base.adapterName,
    connect: async () => overriding(await base.connect(), { executeScript: (script) => runScript(pglite, script) }),
    connectToShadowDb: openScratchPglite,
  };
}

/**
 * For commands that need no real database (diffing the migration history
 * against the schema): the engine still connects to one, so it gets an
 * in-memory PGlite, opened on first use.
 */
export function scratchPgliteAdapterFactory(): SqlMigrationAwareDriverAdapterFactory {
  return {
    provider: "postgres",
    adapterName: "pglite-prisma-adapter",
    connect: openScratchPglite,
    connectToShadowDb: openScratchPglite,
  };
}

// PrismaPGlite's own shadow database lacks the extensions the migrations create.
async function openScratchPglite(): Promise<SqlDriverAdapter> {
  const pglite = await openPglite(null);
  return overriding(await new PrismaPGlite(pglite).connect(), {
    executeScript: (script) => runScript(pglite, script),
    dispose: () => pglite.close(),
  });
}

// PrismaPGlite starts a script without awaiting it, so a failing migration
// would be recorded as applied and its error surface later as an unhandled
// rejection. Scripts run here to completion, and fail as the engine expects.
async function runScript(pglite: PGlite, script: string): Promise<void> {
  try {
    await pglite.exec(script);
  } catch (error) {
    throw toDriverError(error);
  }
}

// A PostgreSQL error from PGlite or from `pg`, in the shape the engine reports.
function toDriverError(error: unknown): unknown {
  if (!(error instanceof messages.DatabaseError) && !(error instanceof pg.DatabaseError)) return error;
  return new DriverAdapterError({
    kind: "postgres",
    code: error.code ?? "N/A",
    severity: error.severity ?? "N/A",
    message: error.message,
    detail: error.detail,
    column: error.column,
    hint: error.hint,
  });
}

/** The engine's adapter for a PostgreSQL server. */
export function postgresAdapterFactory(url: string): SqlMigrationAwareDriverAdapterFactory {
  // PrismaPg builds its shadow database's pool from these options, so that pool gets the same client.
  const pool = new pg.Pool({ connectionString: url, max: 2, Client: CatalogReadingClient });
  const base = new PrismaPg(pool, { disposeExternalPool: true });
  return {
    provider: base.provider,
    adapterName: base.adapterName,
    connect: async () => overriding(await base.connect(), { executeScript: (script) => runPostgresScript(pool, script) }),
    connectToShadowDb: () => base.connectToShadowDb(),
  };
}

// PrismaPg splits a script on every ";", which breaks function bodies ($$ … $$)
// and semicolons in comments. The server takes the whole script as one
// multi-statement query, as `prisma migrate deploy` sends it.
async function runPostgresScript(pool: pg.Pool, script: string): Promise<void> {
  try {
    await pool.query(script);
  } catch (error) {
    throw toDriverError(error);
  }
}

// Reading a schema queries catalog columns of type "char" (pg_class.relkind and
// the like), which PrismaPg cannot map, so diffing a live server would fail.
// Their text values are exactly what the engine wants, so results name them
// text. A client class of our own, given to the pool, covers pool queries and
// the connections transactions check out alike.
class CatalogReadingClient extends pg.Client {
  // One signature for all of pg's overloads; `never` fits each of their return types.
  override query(...args: unknown[]): never {
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback === "function") {
      args[last] = (error: Error | null, result?: pg.QueryResult) => callback(error, result && charColumnsAsText(result));
    }
    const pending = (super.query as (...queryArgs: unknown[]) => unknown)(...args);
    return (pending instanceof Promise ? pending.then(charColumnsAsText) : pending) as never;
  }
}

function charColumnsAsText(result: pg.QueryResult): pg.QueryResult {
  for (const field of result.fields ?? []) {
    if (field.dataTypeID === CHAR_OID) field.dataTypeID = TEXT_OID;
  }
  return result;
}

// The engine neither frees nor disposes connections on its own; PrismaPg
// connections hold pools (and a shadow database to drop), PGlite shadows hold memory.
function trackConnections(factory: SqlMigrationAwareDriverAdapterFactory) {
  const open = new Set<SqlDriverAdapter>();
  const track = (adapter: SqlDriverAdapter): SqlDriverAdapter => {
    open.add(adapter);
    return overriding(adapter, {
      dispose: async () => {
        if (open.delete(adapter)) await adapter.dispose();
      },
    });
  };
  const tracked: SqlMigrationAwareDriverAdapterFactory = {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => track(await factory.connect()),
    connectToShadowDb: async () => track(await factory.connectToShadowDb()),
  };
  const disposeAll = async () => {
    const adapters = [...open];
    open.clear();
    await Promise.allSettled(adapters.map((adapter) => adapter.dispose()));
  };
  return { factory: tracked, disposeAll };
}

// The adapters are class instances whose methods need their `this`, so a
// changed copy delegates rather than spreads.
function overriding(
  adapter: SqlDriverAdapter,
  overrides: Partial<Pick<SqlDriverAdapter, "executeScript" | "dispose">>,
): SqlDriverAdapter {
  return {
    provider: adapter.provider,
    adapterName: adapter.adapterName,
    queryRaw: (query) => adapter.queryRaw(query),
    executeRaw: (query) => adapter.executeRaw(query),
    executeScript: overrides.executeScript ?? ((script) => adapter.executeScript(script)),
    startTransaction: (isolationLevel) => adapter.startTransaction(isolationLevel),
    getConnectionInfo: adapter.getConnectionInfo?.bind(adapter),
    dispose: overrides.dispose ?? (() => adapter.dispose()),
  };
}

// The bindings reject with Error objects; anything else is wrapped so callers can rely on that.
function toEngineError(error: unknown): Error {
  if (error instanceof Error) return error;
  return new Error(`Schema engine failed: ${typeof error === "string" ? error : JSON.stringify(error)}`);
}
