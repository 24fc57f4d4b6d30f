import { describe, expect, it } from "vitest";
import { admit, nextToStart, runningLimit, type Queued } from "../../../src/gate/admission";
import { seededRandom } from "../../../src/random/seeded";

const q = (tenant: string, seq: number): Queued => ({ id: `${tenant}${seq}`, tenant, seq });

describe("which queued evaluations start next", () => {
  it("starts one tenant's questions in the order they came, as many as there is room for", () => {
    const queued = [q("a", 3), q("a", 1), q("a", 2)];
    expect(nextToStart(queued, null, 2)).toEqual({ start: ["a1", "a2"], lastTenant: "a" });
    expect(nextToStart(queued, null, 10).start).toEqual(["a1", "a2", "a3"]);
    expect(nextToStart(queued, null, 0)).toEqual({ start: [], lastTenant: null });
    expect(nextToStart([], "a", 5)).toEqual({ start: [], lastTenant: "a" });
  });

  it("lets tenants take turns, so a tenant's 1,000 queued questions do not hold back another's one", () => {
    const big = Array.from({ length: 1000 }, (_, i) => q("big", i + 1));
    const queued = [...big, q("small", 1001)];
    // the big tenant was served last: the small one goes first, whatever it posted after
    expect(nextToStart(queued, "big", 1)).toEqual({ start: ["small1001"], lastTenant: "small" });
    expect(nextToStart(queued, "small", 3).start).toEqual(["big1", "small1001", "big2"]);
  });

  it("begins after the tenant served last, wrapping round in name order", () => {
    const queued = [q("a", 1), q("b", 2), q("c", 3), q("a", 4), q("c", 5)];
    expect(nextToStart(queued, "b", 5).start).toEqual(["c3", "a1", "b2", "c5", "a4"]);
    expect(nextToStart(queued, "c", 2)).toEqual({ start: ["a1", "b2"], lastTenant: "b" });
    // a tenant served last that has nothing queued any more still sets where the turn goes
    expect(nextToStart(queued, "bb", 1).start).toEqual(["c3"]);
    expect(nextToStart(queued, "z", 1).start).toEqual(["a1"]);
  });

  it("for any queue: takes min(room, queued), each tenant's earliest first, and tenants within one of each other", () => {
    const rand = seededRandom(7).next;
    for (let trial = 0; trial < 300; trial++) {
      const tenants = ["t0", "t1", "t2", "t3", "t4"].slice(0, 1 + Math.floor(rand() * 5));
      const queued = Array.from({ length: Math.floor(rand() * 30) }, (_, seq) => q(tenants[Math.floor(rand() * tenants.length)], seq));
      const free = Math.floor(rand() * 35);
      const last = rand() < 0.3 ? null : tenants[Math.floor(rand() * tenants.length)];
      const { start } = nextToStart(queued, last, free);
      expect(start.length).toBe(Math.min(free, queued.length));
      expect(new Set(start).size).toBe(start.length);
      const taken = new Map<string, number>();
      for (const t of tenants) {
        const line = queued.filter((x) => x.tenant === t).map((x) => x.id);
        const mine = start.filter((id) => line.includes(id));
        expect(mine).toEqual(line.slice(0, mine.length)); // first come, first started, per tenant
        taken.set(t, mine.length);
      }
      // fair: a tenant with questions left got no fewer than any other tenant's count minus one
      for (const t of tenants) {
        const left = queued.filter((x) => x.tenant === t).length - taken.get(t)!;
        if (left > 0) for (const u of tenants) expect(taken.get(u)!).toBeLessThanOrEqual(taken.get(t)! + 1);
      }
    }
  });
});

describe("how many evaluations run at once", () => {
  it("is four per judge slot by default, at least 8, or what JUDGE_MAX_RUNNING says", () => {
    expect(runningLimit(16)).toBe(64);
    expect(runningLimit(1)).toBe(8);
    expect(runningLimit(16, 5)).toBe(5);
    expect(runningLimit(16, 0.5)).toBe(1);
  });
});

describe("interactive before batch, at admission", () => {
  const q = (id: string, seq: number, batch = false) => ({ id, tenant: batch ? "school" : "teacher", seq, batch });

  it("starts an interactive evaluation though batch questions hold every running place", () => {
    const queued = [q("b3", 3, true), q("b4", 4, true), q("i1", 5)];
    expect(admit(queued, null, 2, { interactive: 0, batch: 2 }).start).toEqual(["i1"]);
  });

  it("starts batch questions only while fewer than the limit run in all, interactive ones first", () => {
    expect(admit([q("b1", 1, true)], null, 2, { interactive: 2, batch: 0 }).start).toEqual([]);
    expect(admit([q("b1", 1, true), q("b2", 2, true), q("i1", 3)], null, 2, { interactive: 0, batch: 0 }).start).toEqual(["i1", "b1"]);
  });
});
