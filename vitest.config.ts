import path from "node:path";
import { defineConfig } from "vitest/config";

/**
 * The layers, as Vitest projects. `npm run test:fast` runs the first three (and own-process, below)
 * (no build, no server); `npm test` runs them all, in two groups: the layers
 * that need no build run while the production build is made
 * (tests/helpers/global-setup.ts), then the layers that run it.
 */
const LAYERS = {
  /** Pure code, and the identity service's own code. */
  unit: ["tests/unit/**/*.test.ts", "tests/identity/**/*.test.ts"],
  /** The data layer on real databases. */
  data: ["tests/db/**/*.test.ts"],
  /** The route handlers called in the test's process (tests/helpers/in-process-app.ts), on real databases. */
  api: ["tests/api/**/*.test.ts"],
  /** The schema engine, and the embedded database shared between processes: seconds per test, so not in test:fast. */
  engine: ["tests/engine/**/*.test.ts"],
  /** The production server over real HTTP. */
  http: ["tests/integration/**/*.test.ts"],
  /** Real Chromium against the production server. */
  browser: ["tests/browser/**/*.test.ts"],
  /** Real processes and deployments: the CLIs, npm run dev and npm start, the container, the serverless function. */
  e2e: ["tests/e2e/**/*.test.ts"],
};
/** The layers that run the production build: they wait for it (tests/helpers/await-build.ts). */
const BUILT = new Set(["http", "browser", "e2e"]);
/**
 * Files that set the process's environment before loading the module they
 * test (the conversion pool's limits): each runs in a process of its own, as
 * the "own-process" project. The files of every other project share their
 * worker's loaded modules (a third of test:fast's time went to loading the
 * same modules again for each file); nothing else they do outlives a file.
 */
const OWN_PROCESS = ["tests/unit/conversion-no-queue.test.ts", "tests/unit/conversion-pool.test.ts", "tests/unit/conversion-queue.test.ts"];

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
    // Migrated databases every test database is copied from, made once per
    // run; the production build, started once per run (global-setup.ts).
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
    // expect.poll waits for a condition for 1 s unless told otherwise: too
    // short for a page that answers in a few hundred milliseconds on an idle
    // machine and in seconds on a loaded one (a history panel's list, two
    // full runs at once). A bound on the wait, not a speed target.
    expect: { poll: { timeout: 15_000 } },
    pool: "forks",
    // Two test files at a time (Vitest's default on two cores is one): each starts its
    // own servers and databases, so the suite takes about half as long, and every test
    // also runs on a loaded machine.
    maxWorkers: 2,
    // Each layer's time, printed after the run.
    reporters: ["default", "./tests/helpers/layer-times.ts"],
    projects: [
      ...Object.entries(LAYERS).map(([name, include]) => ({
        extends: true as const,
        test: {
          name,
          include,
          isolate: false,
          exclude: OWN_PROCESS,
          sequence: { groupOrder: BUILT.has(name) ? 1 : 0 },
          ...(BUILT.has(name) && {
            // Added to the ones above (extends: true merges the lists).
            globalSetup: ["tests/helpers/global-setup.ts"],
            setupFiles: ["tests/helpers/await-build.ts"],
          }),
        },
      })),
      { extends: true as const, test: { name: "own-process", include: OWN_PROCESS, sequence: { groupOrder: 0 } } },
    ],
  },
});
