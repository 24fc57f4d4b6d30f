import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DAY_MS, dueAt, nextRunAt, planRetention, RETENTION_CRON, type RetentionCandidate, RUN_BUDGET } from "../../../src/model/retention";

const T0 = Date.UTC(2026, 0, 1);

const item = (id: string, over: Partial<RetentionCandidate> = {}): RetentionCandidate => ({
  kind: "evaluation",
  id,
  tenant: "school",
  createdAt: T0,
  ownDays: null,
  tenantDays: 30,
  weight: 1,
  ...over,
});

/** Every list of `n` candidates drawn from the choices below: the planner's whole small world. */
function* worlds(n: number): Generator<RetentionCandidate[]> {
  const own = [null, 1, 3];
  const tenant = [null, 2];
  const weights = [1, 3];
  // equal due times among them too: the id decides their order
  const shapes = own.flatMap((o) => tenant.flatMap((t) => weights.map((w) => ({ o, t, c: T0, w }))));
  const pick = function* (k: number, acc: RetentionCandidate[]): Generator<RetentionCandidate[]> {
    if (k === n) return yield acc;
    for (const s of shapes) yield* pick(k + 1, [...acc, item(`x${k}`, { ownDays: s.o, tenantDays: s.t, createdAt: s.c, weight: s.w })]);
  };
  yield* pick(0, []);
}

const byDue = (a: RetentionCandidate, b: RetentionCandidate) => dueAt(a)! - dueAt(b)! || a.id.localeCompare(b.id);

describe("dueAt", () => {
  it("takes the thing's own retention over its tenant's, longer or shorter, and none without either", () => {
    expect(dueAt({ createdAt: T0, ownDays: 5, tenantDays: 30 })).toBe(T0 + 5 * DAY_MS);
    expect(dueAt({ createdAt: T0, ownDays: 90, tenantDays: 30 })).toBe(T0 + 90 * DAY_MS);
    expect(dueAt({ createdAt: T0, ownDays: null, tenantDays: 30 })).toBe(T0 + 30 * DAY_MS);
    expect(dueAt({ createdAt: T0, ownDays: 7, tenantDays: null })).toBe(T0 + 7 * DAY_MS);
    expect(dueAt({ createdAt: T0, ownDays: null, tenantDays: null })).toBeNull();
  });
});

describe("planRetention, over every world of up to 3 candidates, at every moment that matters, on every budget up to 5", () => {
  const moments = [T0, T0 + DAY_MS, T0 + 2 * DAY_MS - 1, T0 + 2 * DAY_MS, T0 + 3 * DAY_MS, T0 + 5 * DAY_MS];
  it("erases only what is due, longest overdue first, within the budget, and stops only where the next would not fit", () => {
    let worldsSeen = 0;
    const wrong: string[] = [];
    const ids = (list: RetentionCandidate[]) => list.map((c) => c.id).join(",");
    for (const n of [0, 1, 2, 3])
      for (const world of worlds(n)) {
        worldsSeen++;
        for (const now of moments)
          for (const budget of [1, 2, 3, 4, 5]) {
            const plan = planRetention(world, now, budget);
            const due = world.filter((c) => dueAt(c) !== null && dueAt(c)! <= now).sort(byDue);
            const spent = plan.reduce((sum, c) => sum + c.weight, 0);
            const where = `${JSON.stringify(world.map((c) => [c.ownDays, c.tenantDays, c.weight]))} at ${now - T0} budget ${budget}`;
            // a prefix of what is due, in its order: nothing not due, nothing passed over
            if (ids(plan) !== ids(due.slice(0, plan.length))) wrong.push(`not a prefix of what is due: ${where}`);
            // within the budget, unless it is one thing alone that is over it (then erased in a run of its own)
            if (plan.length > 1 && spent > budget) wrong.push(`over the budget: ${where}`);
            // something due is always erased; a run stops only where the next would not fit
            if (due.length > 0 && plan.length === 0) wrong.push(`nothing erased of what is due: ${where}`);
            if (plan.length < due.length && spent + due[plan.length].weight <= budget) wrong.push(`stopped early: ${where}`);
            // the same plan whatever order the rows came in
            if (ids(planRetention([...world].reverse(), now, budget)) !== ids(plan)) wrong.push(`order-dependent: ${where}`);
          }
      }
    expect(wrong).toEqual([]);
    expect(worldsSeen).toBe(1 + 12 + 12 ** 2 + 12 ** 3);
  });

  it("drains any backlog in a bounded number of runs: each run erases at least one thing", () => {
    for (const world of worlds(3)) {
      let left = world.filter((c) => dueAt(c) !== null);
      let runs = 0;
      while (left.length > 0) {
        const plan = planRetention(left, T0 + 10 * DAY_MS, 2);
        expect(plan.length).toBeGreaterThan(0);
        left = left.filter((c) => !plan.includes(c));
        runs++;
      }
      expect(runs).toBeLessThanOrEqual(3);
    }
  });

  it("keeps to the default budget: a large backlog is erased RUN_BUDGET evaluations at a time", () => {
    const backlog = Array.from({ length: 3 * RUN_BUDGET }, (_, i) => item(`ev_${String(i).padStart(4, "0")}`, { createdAt: T0 + i }));
    const plan = planRetention(backlog, T0 + 31 * DAY_MS);
    expect(plan.map((c) => c.id)).toEqual(backlog.slice(0, RUN_BUDGET).map((c) => c.id));
    // a batch of 120 questions overdue first: erased alone, then the rest the next run
    const big = item("ba_big", { kind: "batch", weight: 120, createdAt: T0 - DAY_MS });
    expect(planRetention([...backlog, big], T0 + 31 * DAY_MS)).toEqual([big]);
  });
});

describe("the hourly run", () => {
  it("starts on the next full hour, UTC, the one after once this hour's has begun", () => {
    expect(nextRunAt(Date.UTC(2026, 4, 3, 1, 0, 0, 1))).toBe(Date.UTC(2026, 4, 3, 2));
    expect(nextRunAt(Date.UTC(2026, 4, 3, 3, 0))).toBe(Date.UTC(2026, 4, 3, 4));
    expect(nextRunAt(Date.UTC(2026, 4, 3, 23, 59))).toBe(Date.UTC(2026, 4, 4, 0));
    expect(nextRunAt(Date.UTC(2026, 11, 31, 23, 30))).toBe(Date.UTC(2027, 0, 1, 0));
  });

  it("clears a backlog of 1,000 evaluations within a day, oldest first, each run within its budget", () => {
    const backlog = Array.from({ length: 1000 }, (_, i) => item(`ev_${String(i).padStart(4, "0")}`, { createdAt: T0 + i }));
    let left = backlog;
    let at = nextRunAt(T0 + 30 * DAY_MS + 1000);
    let runs = 0;
    while (left.length > 0) {
      const plan = planRetention(left, at);
      expect(plan.reduce((n, c) => n + c.weight, 0)).toBeLessThanOrEqual(RUN_BUDGET);
      expect(plan.map((c) => c.id)).toEqual(left.slice(0, plan.length).map((c) => c.id));
      left = left.slice(plan.length);
      at = nextRunAt(at);
      runs++;
    }
    expect(runs * 3_600_000).toBeLessThanOrEqual(DAY_MS);
  });

  it("is the Cron Trigger wrangler.toml declares", () => {
    const toml = fs.readFileSync(path.join(import.meta.dirname, "../../../wrangler.toml"), "utf8");
    expect(toml.match(/^\[triggers\]\ncrons = \[(.*)\]$/m)?.[1]).toBe(JSON.stringify(RETENTION_CRON));
  });
});
