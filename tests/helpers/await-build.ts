import fs from "node:fs";
import { waitFor } from "@/scripts/lib/processes";
import { BUILD_STATUS_ENV, type BuildStatus } from "./build-status";

// A setup file of the layers that run the production build: before the test
// file loads, waits for the build the global setup started
// (tests/helpers/global-setup.ts) and fails the file with the build's error
// if it failed. The bound is for a hung build, not a speed target.
const BUILD_TIMEOUT_MS = 20 * 60_000;

const statusFile = process.env[BUILD_STATUS_ENV];
if (!statusFile) throw new Error(`${BUILD_STATUS_ENV} is not set: the global setup tests/helpers/global-setup.ts sets it`);
const status = await waitFor(
  () => {
    try {
      return JSON.parse(fs.readFileSync(statusFile, "utf8")) as BuildStatus;
    } catch (err) {
      // Not written yet (it is written whole, by a rename); anything else is loud.
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw err;
    }
  },
  { timeoutMs: BUILD_TIMEOUT_MS, intervalMs: 250, message: "the production build (tests/helpers/global-setup.ts)" },
);
if (!status.ok) throw new Error(`The production build failed:\n${status.error}`);
