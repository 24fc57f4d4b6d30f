import type { ErasureKind } from "./erasure";

/**
 * The run's schedule, as wrangler.toml's `[triggers] crons` says it (a unit test holds them equal):
 * every hour on the hour. A run erases a bounded chunk; run once a day, a backlog of a thousand
 * evaluations (a school's first retention, a year's data falling due at once) would take three weeks
 * to clear, and what falls due would wait up to a day. Hourly, the same chunk clears 1,200 a day and
 * nothing due waits more than an hour; a run with nothing due costs one D1 query.
 */
export const RETENTION_CRON = "0 * * * *";
const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

/**
 * Evaluations one retention run erases at most (a batch counts its questions, a collection 1). Each
 * erasure costs about a dozen subrequests (D1 queries, the tournament's object, the webhook queue) and a
 * few ms of CPU: 50 stay near 600 subrequests, under the 1,000 a Worker on the older paid plan may make
 * in one invocation, and far under a second of CPU against the 30 s a Cron Trigger gets by default. What
 * is due past it waits for the next run (GET /v1/tenant/settings says how much).
 */
export const RUN_BUDGET = 50;

/** Something a tenant owns that a retention may erase: a standalone evaluation, a batch or a collection. */
export interface RetentionCandidate {
  kind: ErasureKind;
  id: string;
  tenant: string;
  createdAt: number;
  /** Its own `retentionDays`, given when it was made, or null. */
  ownDays: number | null;
  /** Its tenant's `retentionDays`, or null. */
  tenantDays: number | null;
  /** The evaluations its erasure covers: a batch's questions, else 1. */
  weight: number;
}

/** When it falls due: its own retention wins over its tenant's; null when neither holds one. */
export function dueAt(c: Pick<RetentionCandidate, "createdAt" | "ownDays" | "tenantDays">): number | null {
  const days = c.ownDays ?? c.tenantDays;
  return days === null ? null : c.createdAt + days * DAY_MS;
}

/**
 * What a run at `now` erases: of what is due by then, the longest overdue first (then by id, so the
 * plan is the same whatever order the rows came in), while the evaluations they cover fit the budget.
 * The first is taken even if alone it is over (a batch larger than the budget is erased in a run of its
 * own, not never), and the run stops at the first that does not fit rather than skipping it for smaller
 * ones: what has waited longest is never passed over, so every due thing is erased in a bounded number
 * of runs.
 */
export function planRetention(candidates: readonly RetentionCandidate[], now: number, budget = RUN_BUDGET): RetentionCandidate[] {
  const due = candidates
    .map((c) => ({ c, at: dueAt(c) }))
    .filter((d): d is { c: RetentionCandidate; at: number } => d.at !== null && d.at <= now)
    .sort((x, y) => x.at - y.at || (x.c.id < y.c.id ? -1 : x.c.id > y.c.id ? 1 : 0));
  const erase: RetentionCandidate[] = [];
  let spent = 0;
  for (const { c } of due) {
    const weight = Math.max(1, c.weight);
    if (erase.length > 0 && spent + weight > budget) break;
    erase.push(c);
    spent += weight;
  }
  return erase;
}

/** The start of the first run after `now` (the next full hour, UTC; at a full hour exactly, the one after). */
export function nextRunAt(now: number): number {
  return (Math.floor(now / HOUR_MS) + 1) * HOUR_MS;
}
