import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  poweredByHeader: false,
  // Loaded from node_modules at run time rather than bundled: they read their
  // own .wasm/.data files relative to their install location (nodemailer is
  // Node-only and needs no bundling either).
  serverExternalPackages: ["@electric-sql/pglite", "pglite-prisma-adapter", "@prisma/schema-engine-wasm", "@blocknote/server-util", "nodemailer"],
  experimental: {
    serverActions: {
      // The editor saves a whole note body (BlockNote JSON) per save; see NOTE_CONTENT_MAX_BYTES.
      bodySizeLimit: "2mb",
    },
  },
};

export default nextConfig;
