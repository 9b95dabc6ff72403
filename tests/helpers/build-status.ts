import fs from "node:fs";
import { waitFor } from "@/scripts/lib/processes";

/** Where the run's build status file is (set by tests/helpers/global-setup.ts). */
export const BUILD_STATUS_ENV = "TEST_BUILD_STATUS";

/** What a status file holds once its part of the run's build has ended. */
export type BuildStatus = { ok: true } | { ok: false; error: string };

/**
 * The parts of the build, each with its own status file: the app (`next
 * build`, all the built layers need it) is ready a minute before the
 * deployments made from it (the serverless function and the container's
 * folder, which only their own tests need).
 */
export type BuildPart = "app" | "deployments";

/** The bound is for a hung build, not a speed target. */
const BUILD_TIMEOUT_MS = 20 * 60_000;

/** The status file of one part of the build. */
export function buildStatusFile(part: BuildPart, file = process.env[BUILD_STATUS_ENV]): string {
  if (!file) throw new Error(`${BUILD_STATUS_ENV} is not set: the global setup tests/helpers/global-setup.ts sets it`);
  return part === "app" ? file : `${file}.${part}`;
}

/** Writes a part's outcome whole, then renames it into place: a reader never sees half of it. */
export function writeBuildStatus(file: string, status: BuildStatus): void {
  fs.writeFileSync(`${file}.tmp`, JSON.stringify(status));
  fs.renameSync(`${file}.tmp`, file);
}

/** Waits until a part of the run's build has ended; throws with the build's error if it failed. */
export async function awaitBuild(part: BuildPart): Promise<void> {
  const file = buildStatusFile(part);
  const status = await waitFor(
    () => {
      try {
        return JSON.parse(fs.readFileSync(file, "utf8")) as BuildStatus;
      } catch (err) {
        // Not written yet (it is written whole, by a rename); anything else is loud.
        if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
        throw err;
      }
    },
    { timeoutMs: BUILD_TIMEOUT_MS, intervalMs: 250, message: `the production build's ${part} (tests/helpers/global-setup.ts)` },
  );
  if (!status.ok) throw new Error(`The production build failed:\n${status.error}`);
}
