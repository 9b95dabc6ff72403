import path from "node:path";
import { defineConfig } from "vitest/config";

/** The layers that need no build and no server: pure code, the data layer on real databases, the identity service. */
const FAST = ["tests/unit/**/*.test.ts", "tests/db/**/*.test.ts", "tests/identity/**/*.test.ts"];
/** The route handlers called in the test's process (tests/helpers/in-process-app.ts) on real databases: no build. */
const API = ["tests/api/**/*.test.ts"];
/** The layers that run the production build: route handlers over HTTP, a real browser, whole deployments. */
const APP = ["tests/integration/**/*.test.ts", "tests/browser/**/*.test.ts", "tests/e2e/**/*.test.ts"];

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
    // Migrated databases every test database is copied from, made once per run.
    globalSetup: ["tests/helpers/api-traffic-setup.ts", "tests/helpers/database-templates.ts"],
    // Every API response the tests receive is checked against the OpenAPI document.
    setupFiles: ["tests/helpers/check-api-traffic.ts"],
    // Bounds for a hung test, not speed targets (those live in npm run bench):
    // on a loaded CI machine a Markdown test may wait many seconds for a
    // conversion worker that was replaced after a killed job.
    testTimeout: 120_000,
    env: {
      // The tests wait for a conversion worker instead of reading the 503 an
      // overloaded server gives after 15 s (that answer has its own tests,
      // which set their own bound).
      CONVERSION_QUEUE_TIMEOUT_MS: "110000",
    },
    hookTimeout: 120_000,
    pool: "forks",
    // Two test files at a time (Vitest's default on two cores is one): each starts its
    // own servers and databases, so the suite takes about half as long, and every test
    // also runs on a loaded machine.
    maxWorkers: 2,
    // Each layer's wall time, printed after the run (the layers run one after another).
    reporters: ["default", "./tests/helpers/layer-times.ts"],
    projects: [
      // `npm run test:fast`: the loop between edits.
      { extends: true, test: { name: "fast", include: FAST, sequence: { groupOrder: 0 } } },
      // Also in `npm run test:fast`.
      { extends: true, test: { name: "api", include: API, sequence: { groupOrder: 1 } } },
      // Built once per run, before any of these files (tests/helpers/global-setup.ts).
      { extends: true, test: { name: "app", include: APP, globalSetup: ["tests/helpers/global-setup.ts"], sequence: { groupOrder: 2 } } },
    ],
  },
});
