import { getEnv } from "@/lib/env";

const DAY_MS = 24 * 60 * 60 * 1000;

/** The clock and retention a trash operation runs with; tests pass their own. */
export type TrashClock = {
  /** Defaults to the current time. */
  now?: Date;
  /** Defaults to TRASH_RETENTION_DAYS. */
  retentionDays?: number;
};

export function retentionMs(clock: TrashClock): number {
  return (clock.retentionDays ?? getEnv().TRASH_RETENTION_DAYS) * DAY_MS;
}

/** Notes deleted before this moment have expired. */
export function expiryCutoff(clock: TrashClock): Date {
  return new Date((clock.now ?? new Date()).getTime() - retentionMs(clock));
}
