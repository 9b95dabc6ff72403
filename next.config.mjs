// Plain JavaScript, not TypeScript: a production server loads this file as it
// starts, and Next.js compiles a TypeScript config with its native SWC module
// (24 MB mapped), which then stays loaded in the server.

/** @type {import("next").NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  // The benchmark's build (bench/build-app.ts) adds its framework-floor route,
  // app/api/floor/route.bench.ts; no other build has it.
  pageExtensions: process.env.NEXT_BENCH_FLOOR === "1" ? ["tsx", "ts", "bench.ts"] : ["tsx", "ts"],
  // A separate build folder lets a benchmark or test build run beside a dev build.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  // The release build both deployments are made from (scripts/lib/release-build.ts):
  // the app with only the node_modules it needs. Other builds stay as `next start` serves them.
  output: process.env.NEXT_OUTPUT === "standalone" ? "standalone" : undefined,
  // The benchmark measures the running app; `npm run typecheck` and the test
  // build check types.
  typescript: { ignoreBuildErrors: process.env.NEXT_SKIP_TYPECHECK === "1" },
  // Local state never ships: the embedded database, the outbox and the local
  // identity service's files (.data), benchmark and test results. Code that
  // opens them resolves their paths at run time; this keeps any trace of such
  // a path out of every route's files (scripts/lib/build-contents.ts checks).
  outputFileTracingExcludes: { "*": [".data/**", "bench/results/**", "test-results/**", "coverage/**"] },
  // Loaded from node_modules at run time rather than bundled: they read their
  // own .wasm/.data files relative to their install location (nodemailer is
  // Node-only and needs no bundling either; piscina starts its workers from
  // its own files, which must stay where it is installed).
  serverExternalPackages: ["@electric-sql/pglite", "pglite-prisma-adapter", "@prisma/schema-engine-wasm", "nodemailer", "piscina"],
  // The dev log is one line per request: no line per server action call
  // (its arguments would show a note's text), and only the browser's errors.
  logging: { serverFunctions: false, browserToTerminal: "error" },
  experimental: {
    serverActions: {
      // The editor saves a whole note body (BlockNote JSON) per save; see NOTE_CONTENT_MAX_BYTES.
      bodySizeLimit: "2mb",
    },
  },
};

export default nextConfig;
