import { defineConfig } from "prisma/config";

// Used by `prisma generate`. Migrations run through scripts/db-migrate.ts
// (Prisma's WASM schema engine), which reads the same schema and folder.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
});
