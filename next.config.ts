import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  poweredByHeader: false,
  // A separate build folder lets a benchmark or test build run beside a dev build.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  // Loaded from node_modules at run time rather than bundled: they read their
  // own .wasm/.data files relative to their install location.
  serverExternalPackages: ["@electric-sql/pglite", "pglite-prisma-adapter", "@prisma/schema-engine-wasm", "@blocknote/server-util"],
};

export default nextConfig;
