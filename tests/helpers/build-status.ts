import fs from "node:fs";

/** Where the run's build status file is (set by tests/helpers/global-setup.ts). */
export const BUILD_STATUS_ENV = "TEST_BUILD_STATUS";

/** What the status file holds once the run's build has ended. */
export type BuildStatus = { ok: true } | { ok: false; error: string };

/** Writes the build's outcome whole, then renames it into place: a reader never sees half of it. */
export function writeBuildStatus(file: string, status: BuildStatus): void {
  fs.writeFileSync(`${file}.tmp`, JSON.stringify(status));
  fs.renameSync(`${file}.tmp`, file);
}
