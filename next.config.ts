import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  poweredByHeader: false,
  // Loaded from node_modules at run time rather than bundled: they read their
  // own .wasm/.data files relative to their install location.
  serverExternalPackages: ["@electric-sql/pglite", "pglite-prisma-adapter", "@prisma/schema-engine-wasm", "@blocknote/server-util"],
};

export default nextConfig;
