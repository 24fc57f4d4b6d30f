import { describe, expect, it } from "vitest";
import { admit, hasRoom, type Held, nextToStart, runningLimit, TENANT_SHARE, tenantLimit, type Queued } from "../../../src/gate/admission";
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
  const held = (entries: Record<string, Partial<Held>>) =>
    new Map(Object.entries(entries).map(([t, h]) => [t, { interactive: h.interactive ?? 0, batch: h.batch ?? 0 }]));

  it("starts an interactive evaluation though batch questions hold every running place", () => {
    const queued = [q("b3", 3, true), q("b4", 4, true), q("i1", 5)];
    expect(admit(queued, null, 2, held({ school: { batch: 2 } })).start).toEqual(["i1"]);
  });

  it("starts batch questions only while fewer than the limit run in all, interactive ones first", () => {
    expect(admit([q("b1", 1, true)], null, 2, held({ teacher: { interactive: 1 }, other: { interactive: 1 } })).start).toEqual([]);
    expect(admit([q("b1", 1, true), q("b2", 2, true), q("i1", 3)], null, 2, held({})).start).toEqual(["i1", "b1"]);
  });
});

describe("a tenant's share of the running places", () => {
  const e = (tenant: string, seq: number, batch = false): Queued => ({ id: `${tenant}${batch ? "b" : "i"}${seq}`, tenant, seq, batch });
  const held = (entries: Record<string, Partial<Held>>) =>
    new Map(Object.entries(entries).map(([t, h]) => [t, { interactive: h.interactive ?? 0, batch: h.batch ?? 0 }]));

  it("is three quarters of the limit, rounded down so another tenant always has a place, and at least one", () => {
    expect(TENANT_SHARE).toBe(3 / 4);
    expect([1, 2, 3, 4, 5, 8, 64, 65, 256].map(tenantLimit)).toEqual([1, 1, 2, 3, 3, 6, 48, 48, 192]);
    for (let limit = 2; limit <= 1000; limit++) expect(tenantLimit(limit)).toBeLessThan(limit);
  });

  it("the issue's case: a tenant with 80 queued holds 48 of 64 places, and another tenant's question starts at once", () => {
    const flood = Array.from({ length: 80 }, (_, i) => e("attacker", i + 1));
    const first = admit(flood, null, 64, held({}));
    expect(first.start).toEqual(flood.slice(0, 48).map((x) => x.id));
    const later = admit([...flood.slice(48), e("school", 81)], first.lastTenant, 64, held({ attacker: { interactive: 48 } }));
    expect(later.start).toEqual(["schooli81"]);
    // the attacker's next starts only when one of its own ends, whatever room is left
    expect(admit(flood.slice(48), "school", 64, held({ attacker: { interactive: 48 }, school: { interactive: 1 } })).start).toEqual([]);
    expect(admit(flood.slice(48), "school", 64, held({ attacker: { interactive: 47 } })).start).toEqual(["attackeri49"]);
  });

  it("counts a tenant's batch questions: they start only while the tenant runs fewer than its share in all", () => {
    const exam = Array.from({ length: 10 }, (_, i) => e("school", i + 1, true));
    expect(admit(exam, null, 8, held({})).start).toHaveLength(6);
    expect(admit(exam, null, 8, held({ school: { interactive: 4, batch: 1 } })).start).toEqual(["schoolb1"]);
    expect(admit(exam, null, 8, held({ school: { interactive: 6 } })).start).toEqual([]);
    // another tenant's exam takes the places left
    expect(admit([...exam, e("other", 11, true)], null, 8, held({ school: { batch: 6 } })).start).toEqual(["otherb11"]);
  });

  it("still starts a tenant's question while its own exam holds its share, and what it runs past its share takes no batch place from another tenant", () => {
    const queued = [e("school", 1, true), e("school", 2), e("other", 3, true)];
    const pick = admit(queued, null, 8, held({ school: { batch: 6 } }));
    expect(pick.start).toEqual(["schooli2", "otherb3"]);
    // the school runs 6 questions of its exam and 6 interactive ones: it counts as 6 for the batch room
    expect(admit([e("other", 4, true), e("other", 5, true)], null, 8, held({ school: { interactive: 6, batch: 6 } })).start).toEqual([
      "otherb4",
      "otherb5",
    ]);
  });

  it("gives a tenant's turns to others while it is at its share", () => {
    const queued = [e("a", 1), e("a", 2), e("b", 3), e("b", 4), e("c", 5)];
    // a is at its share (3 of 4): b and c take turns, from after a
    expect(admit(queued, null, 8, held({ a: { interactive: 6 } })).start).toEqual(["bi3", "ci5"]);
  });

  const random = seededRandom(11).next;
  const pickInt = (n: number) => Math.floor(random() * n);

  /**
   * What must hold of one admission turn, from `running` with `queued` waiting: the limits and shares
   * are kept, each tenant's own start first posted first, and nothing more could have started
   * (work-conserving: what waits, waits for a reason).
   */
  function checkTurn(queued: Queued[], running: Map<string, Held>, limit: number, lastTenant: string | null) {
    const share = tenantLimit(limit);
    const ok = (holds: boolean, what: string) => {
      if (!holds)
        throw new Error(
          `${what}: limit ${limit}, running ${JSON.stringify([...running])}, queued ${queued.map((x) => x.id)}, start ${start}`,
        );
    };
    const { start } = admit(queued, lastTenant, limit, running);
    const byId = new Map(queued.map((x) => [x.id, x]));
    ok(new Set(start).size === start.length, "an evaluation started twice");
    const after = new Map([...running].map(([t, h]) => [t, { ...h }]));
    for (const id of start) {
      const x = byId.get(id)!;
      const h = after.get(x.tenant) ?? { interactive: 0, batch: 0 };
      if (x.batch) h.batch++;
      else h.interactive++;
      after.set(x.tenant, h);
    }
    const sum = (f: (h: Held) => number) => [...after.values()].reduce((n, h) => n + f(h), 0);
    const counted = sum((h) => Math.min(h.interactive + h.batch, share));
    const started = (t: string, batch: boolean) => start.filter((id) => byId.get(id)!.tenant === t && !!byId.get(id)!.batch === batch);
    const tenants = new Set([...queued.map((x) => x.tenant), ...running.keys()]);
    const beforeInteractive = [...running.values()].reduce((n, h) => n + h.interactive, 0);
    // interactive ones: at most the limit in all, unless that many ran already
    ok(sum((h) => h.interactive) <= Math.max(limit, beforeInteractive), "interactive past the limit");
    if (start.some((id) => byId.get(id)!.batch)) ok(counted <= limit, "batch past the limit");
    for (const t of tenants) {
      const h = after.get(t) ?? { interactive: 0, batch: 0 };
      // a tenant's starts keep it within its share: interactive ones by themselves, batch ones in all
      if (started(t, false).length > 0) ok(h.interactive <= share, `${t} past its share of interactive ones`);
      if (started(t, true).length > 0) ok(h.interactive + h.batch <= share, `${t} past its share in all`);
      for (const batch of [false, true]) {
        const line = queued
          .filter((x) => x.tenant === t && !!x.batch === batch)
          .sort((a, b) => a.seq - b.seq)
          .map((x) => x.id);
        const mine = started(t, batch);
        ok(
          mine.every((id) => line.indexOf(id) < mine.length),
          `${t} started out of order`,
        ); // first posted, first started
        if (mine.length === line.length) continue;
        // one of this tenant's waits: there was no room for it
        if (!batch) ok(sum((x) => x.interactive) >= limit || h.interactive >= share, `${t} waits with room`);
        else ok(counted >= limit || h.interactive + h.batch >= share, `${t} waits with room for a batch question`);
      }
    }
    return after;
  }

  it("for every state of two tenants at limits 1 to 5: keeps the limits and shares, and starts all there is room for", () => {
    let turns = 0;
    for (let limit = 1; limit <= 5; limit++) {
      const counts = Array.from({ length: limit + 1 }, (_, n) => n);
      for (const ai of counts)
        for (const ab of counts)
          for (const bi of counts)
            for (const bb of counts)
              for (let mask = 0; mask < 81; mask++) {
                // 0 to 2 queued of each kind for each tenant
                const sizes = [mask % 3, Math.floor(mask / 3) % 3, Math.floor(mask / 9) % 3, Math.floor(mask / 27) % 3];
                let seq = 0;
                const queued: Queued[] = [];
                for (const [k, [tenant, batch]] of (
                  [
                    ["a", false],
                    ["a", true],
                    ["b", false],
                    ["b", true],
                  ] as const
                ).entries())
                  for (let n = 0; n < sizes[k]; n++) queued.push(e(tenant, ++seq, batch));
                const running = new Map<string, Held>();
                if (ai + ab > 0) running.set("a", { interactive: ai, batch: ab });
                if (bi + bb > 0) running.set("b", { interactive: bi, batch: bb });
                checkTurn(queued, running, limit, mask % 2 ? "a" : null);
                turns++;
              }
    }
    expect(turns).toBe(81 * [2, 3, 4, 5, 6].reduce((n, k) => n + k ** 4, 0));
  });

  it("over random runs of several tenants (posts, ends, turns): no tenant holds past its share, and one that holds nothing gets a place while a single other tenant holds the rest", () => {
    for (let trial = 0; trial < 200; trial++) {
      const limit = 2 + pickInt(14);
      const share = tenantLimit(limit);
      const tenants = ["t0", "t1", "t2", "t3"].slice(0, 2 + pickInt(3));
      let queued: Queued[] = [];
      let running = new Map<string, Held>();
      const runningIds: Queued[] = [];
      let last: string | null = null;
      let seq = 0;
      for (let step = 0; step < 60; step++) {
        if (random() < 0.6 || runningIds.length === 0) {
          const tenant = tenants[pickInt(tenants.length)];
          const batch = random() < 0.4;
          for (let n = 1 + pickInt(random() < 0.2 ? 3 * limit : 3); n > 0; n--) queued.push(e(tenant, ++seq, batch));
        } else {
          const [ended] = runningIds.splice(pickInt(runningIds.length), 1);
          const h = running.get(ended.tenant)!;
          if (ended.batch) h.batch--;
          else h.interactive--;
          if (h.interactive + h.batch === 0) running.delete(ended.tenant);
        }
        const holders = [...running.keys()];
        const pick = admit(queued, last, limit, running);
        const afterTurn = checkTurn(queued, running, limit, last);
        for (const [t, h] of afterTurn) if (h.interactive + h.batch === 0) afterTurn.delete(t);
        running = afterTurn;
        runningIds.push(...queued.filter((x) => pick.start.includes(x.id)));
        queued = queued.filter((x) => !pick.start.includes(x.id));
        last = pick.lastTenant;
        for (const h of running.values()) {
          expect(h.interactive).toBeLessThanOrEqual(share);
          expect(h.batch).toBeLessThanOrEqual(share);
        }
        expect([...running.values()].reduce((n, h) => n + h.interactive, 0)).toBeLessThanOrEqual(limit);
        expect([...running.values()].reduce((n, h) => n + h.batch, 0)).toBeLessThanOrEqual(limit);
        // the quarter left: while a single tenant holds places, whatever its backlog, a tenant with
        // something queued and nothing running gets a place in this turn (one of them, if several)
        const newcomers = tenants.filter((t) => !holders.includes(t) && queued.concat(runningIds).some((x) => x.tenant === t));
        if (holders.length <= 1 && newcomers.length > 0)
          expect(
            newcomers.some((t) => running.has(t)),
            `${newcomers} wait while only ${holders} runs`,
          ).toBe(true);
      }
    }
  });

  it("has room while either kind has a place left, each tenant counted up to its share in all", () => {
    expect(hasRoom(4, held({}))).toBe(true);
    expect(hasRoom(4, held({ a: { interactive: 3 }, b: { interactive: 1 } }))).toBe(false);
    expect(hasRoom(4, held({ a: { interactive: 3, batch: 3 }, b: { interactive: 1 } }))).toBe(false);
    expect(hasRoom(4, held({ a: { interactive: 3 } }))).toBe(true);
    // a holds 4 in all, past its share (3): it counts as 3, so a batch place is left
    expect(hasRoom(4, held({ a: { interactive: 3, batch: 1 } }))).toBe(true);
    expect(admit([e("b", 1, true)], null, 4, held({ a: { interactive: 3, batch: 1 } })).start).toEqual(["bb1"]);
    for (let limit = 1; limit <= 6; limit++)
      for (let i = 0; i <= limit; i++)
        for (let b = 0; b <= limit; b++) {
          const running = held({ a: { interactive: i, batch: b } });
          const anything = [e("a", 1), e("a", 2, true), e("z", 3), e("z", 4, true)];
          // no room: nothing starts; room: something of someone's could
          if (!hasRoom(limit, running)) expect(admit(anything, null, limit, running).start).toEqual([]);
          else expect(admit(anything, null, limit, running).start.length).toBeGreaterThan(0);
        }
  });
});
