import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: {
      "@": import.meta.dirname,
      // `server-only` throws outside React Server Components; tests run lib code directly.
      "server-only": path.resolve(import.meta.dirname, "tests/helpers/empty-module.ts"),
    },
  },
  test: {
    environment: "node",
    include: ["tests/**/*.test.ts"],
    globalSetup: ["tests/helpers/global-setup.ts", "tests/helpers/api-traffic-setup.ts"],
    // Every API response the tests receive is checked against the OpenAPI document.
    setupFiles: ["tests/helpers/check-api-traffic.ts"],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: "forks",
  },
});
