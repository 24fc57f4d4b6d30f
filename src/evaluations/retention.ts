import type { TenantSettings } from "../contract";
import { database } from "../db/database";
import { dropExpiredSessionsAndLogins } from "../db/lti-links";
import { dueCount, dueForRetention, tenantRetention } from "../db/retention";
import { nextRunAt, planRetention, RUN_BUDGET } from "../model/retention";
import { ProblemError } from "../platform/problems";
import { erase } from "./erasure";

/** Who the audit trail and the tombstones say erased what a retention erased. */
export const RETENTION = "retention";

/**
 * One retention run at `now` (the Cron Trigger's scheduled time): what the planner picks of what is
 * due is erased through `erase()`, one after another, so each gets its tombstone, its 410s and its
 * audit line (who: "retention"). One that fails is logged and left for the next run (its tombstone, if
 * written, also lets the next request that meets it finish it); the others go on. Expired LTI page
 * sessions go first.
 */
export async function runRetention(env: Env, now: number): Promise<{ erased: string[]; failed: string[] }> {
  // the LTI pages' sessions and logins that have expired (by the clock, not the run's schedule: they
  // live in real time): they name people, or the LMS's hint for one, and serve no one any more
  await dropExpiredSessionsAndLogins(database(env.DB), Date.now());
  const plan = planRetention(await dueForRetention(env.DB, now, RUN_BUDGET), now);
  const erased: string[] = [];
  const failed: string[] = [];
  for (const item of plan) {
    try {
      await erase(env, item.tenant, item.kind, item.id, RETENTION);
      erased.push(item.id);
    } catch (err) {
      // erased meanwhile with what held it, or by its owner: nothing is left to do
      if (err instanceof ProblemError && err.status === 404) continue;
      console.error("retention could not erase", item.kind, item.id, err);
      failed.push(item.id);
    }
  }
  return { erased, failed };
}

/**
 * The tenant's settings, with what the next hourly run would erase of its data were it to run on the
 * data as it is now: the planner's pick of everything due by then (the budget is shared by every
 * tenant, oldest due first), this tenant's part of it, and how much of its due data waits past it.
 */
export async function tenantSettingsView(env: Env, tenant: string, now: number): Promise<TenantSettings> {
  const at = nextRunAt(now);
  const [retentionDays, due, count] = await Promise.all([
    tenantRetention(database(env.DB), tenant),
    dueForRetention(env.DB, at, RUN_BUDGET),
    dueCount(env.DB, at, tenant),
  ]);
  const mine = planRetention(due, at).filter((c) => c.tenant === tenant);
  const ids = (kind: string) => mine.filter((c) => c.kind === kind).map((c) => c.id);
  const [evaluations, batches, collections] = [ids("evaluation"), ids("batch"), ids("collection")];
  return {
    retentionDays,
    nextRun: {
      at: new Date(at).toISOString(),
      counts: { evaluations: evaluations.length, batches: batches.length, collections: collections.length },
      evaluations,
      batches,
      collections,
      later: count - mine.length,
    },
  };
}
