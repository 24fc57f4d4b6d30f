import { describe, expect, it } from "vitest";
import { FairGate, type Waiter } from "../../../src/gate/fair-gate";

const w = (owner: string, n: number, run = "r1"): Waiter => ({ id: `${owner}#${n}`, owner, run });
const ids = (ws: Waiter[]) => ws.map((x) => x.id);

describe("the judge gate's permits", () => {
  it("grants up to the cap at once and queues the rest", () => {
    const gate = new FairGate(3, 10_000);
    const granted = [1, 2, 3, 4, 5].flatMap((n) => gate.request(w("a", n), 0).granted);
    expect(ids(granted)).toEqual(["a#1", "a#2", "a#3"]);
    expect(gate.stats()).toMatchObject({ cap: 3, inUse: 3, waiting: 2, owners: 1 });
    expect(ids(gate.release("a#2", 1))).toEqual(["a#4"]);
    expect(gate.stats().inUse).toBe(3);
  });

  it("never holds more than the cap, whatever the order of requests and releases", () => {
    for (let seed = 1; seed <= 50; seed++) {
      let x = seed;
      const rand = () => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0) % 1000) / 1000;
      const cap = 1 + Math.floor(rand() * 8);
      const gate = new FairGate(cap, 1e9);
      const held: string[] = [];
      let n = 0;
      for (let step = 0; step < 400; step++) {
        if (rand() < 0.55 || held.length === 0) {
          const owner = `o${Math.floor(rand() * 5)}`;
          held.push(...ids(gate.request(w(owner, n++), step).granted));
        } else {
          const [id] = held.splice(Math.floor(rand() * held.length), 1);
          held.push(...ids(gate.release(id, step)));
        }
        expect(held.length).toBeLessThanOrEqual(cap);
        expect(gate.stats().inUse).toBe(held.length);
        // work-conserving: nobody waits while a permit is free
        if (gate.stats().waiting > 0) expect(held.length).toBe(cap);
      }
    }
  });

  it("takes turns between owners: a big batch queued first does not starve a small one", () => {
    const gate = new FairGate(2, 10_000);
    const held: string[] = [];
    for (let n = 1; n <= 100; n++) held.push(...ids(gate.request(w("big", n), 0).granted));
    for (let n = 1; n <= 3; n++) held.push(...ids(gate.request(w("small", n), 0).granted));
    expect(held).toEqual(["big#1", "big#2"]);
    // each release hands the permit to the next owner in turn: small waits one turn at most
    const order: string[] = [];
    for (let k = 0; k < 8; k++) {
      const next = gate.release(held.shift()!, k);
      order.push(...ids(next));
      held.push(...ids(next));
    }
    expect(order).toEqual(["big#3", "small#1", "big#4", "small#2", "big#5", "small#3", "big#6", "big#7"]);
  });

  it("serves many owners round-robin, each in its own order, and a newcomer after one cycle at most", () => {
    const gate = new FairGate(1, 10_000);
    let holding = ids(gate.request(w("a", 0), 0).granted)[0];
    for (const o of ["a", "b", "c"]) for (let n = 1; n <= 3; n++) gate.request(w(o, n), 0);
    const order: string[] = [];
    const step = () => {
      const [next] = ids(gate.release(holding, 0));
      order.push(next);
      holding = next;
    };
    step();
    step();
    gate.request(w("d", 1), 0); // joins the back of the line: after c, a and b had their turn
    for (let k = 0; k < 8; k++) step();
    expect(order).toEqual(["a#1", "b#1", "c#1", "a#2", "b#2", "d#1", "c#2", "a#3", "b#3", "c#3"]);
    expect(gate.stats()).toMatchObject({ cap: 1, inUse: 1, waiting: 0, owners: 0 });
  });

  it("grants every owner the same share while all of them wait", () => {
    const gate = new FairGate(4, 10_000);
    const held: Waiter[] = [];
    for (const o of ["a", "b", "c", "d", "e"]) for (let n = 0; n < 40; n++) held.push(...gate.request(w(o, n), 0).granted);
    const count = new Map<string, number>();
    for (let k = 0; k < 100; k++) {
      const next = gate.release(held.shift()!.id, k);
      for (const g of next) count.set(g.owner, (count.get(g.owner) ?? 0) + 1);
      held.push(...next);
    }
    expect([...count.values()].every((c) => c === 20)).toBe(true);
  });

  it("reclaims a lease that was never released once it expires", () => {
    const gate = new FairGate(1, 1_000);
    expect(ids(gate.request(w("dead", 1), 0).granted)).toEqual(["dead#1"]);
    expect(gate.request(w("live", 1), 10).granted).toEqual([]);
    expect(gate.nextExpiry()).toBe(1_000);
    expect(gate.expire(999)).toEqual([]);
    expect(ids(gate.expire(1_000))).toEqual(["live#1"]);
    expect(gate.held("dead#1")).toBe(false);
    // the late release of the expired lease changes nothing
    expect(gate.release("dead#1", 1_500)).toEqual([]);
    expect(gate.stats().inUse).toBe(1);
  });

  it("knows when each permit it holds was granted, and forgets it with the permit (the pace is read from it)", () => {
    const gate = new FairGate(2, 1_000);
    gate.request(w("a", 1), 5);
    gate.request(w("b", 1), 7);
    gate.request(w("c", 1), 8);
    expect([gate.grantedAt("a#1"), gate.grantedAt("b#1"), gate.grantedAt("c#1")]).toEqual([5, 7, undefined]);
    gate.release("a#1", 20);
    expect([gate.grantedAt("a#1"), gate.grantedAt("c#1")]).toEqual([undefined, 20]);
    gate.forget("c", 30);
    expect(gate.grantedAt("c#1")).toBeUndefined();
    // b#1 died holding its permit: once expired, nothing of it is kept
    gate.expire(1_007);
    expect(gate.grantedAt("b#1")).toBeUndefined();
    expect(gate.stats().inUse).toBe(0);
  });

  it("drops what an older run of an owner holds or waits for when a newer run asks", () => {
    const gate = new FairGate(2, 10_000);
    gate.request(w("ev", 1, "old"), 0);
    gate.request(w("ev", 2, "old"), 0);
    gate.request(w("ev", 3, "old"), 0);
    gate.request(w("other", 1), 0);
    const { granted, dropped } = gate.request(w("ev", 4, "new"), 1);
    expect(ids(dropped).sort()).toEqual(["ev#1", "ev#2", "ev#3"]);
    expect(ids(granted).sort()).toEqual(["ev#4", "other#1"]);
    expect(gate.stats()).toMatchObject({ cap: 2, inUse: 2, waiting: 0, owners: 0 });
  });

  it("forgets a cancelled owner and gives its permits to others", () => {
    const gate = new FairGate(1, 10_000);
    gate.request(w("gone", 1), 0);
    gate.request(w("gone", 2), 0);
    gate.request(w("stays", 1), 0);
    const { granted, dropped } = gate.forget("gone", 1);
    expect(ids(dropped).sort()).toEqual(["gone#1", "gone#2"]);
    expect(ids(granted)).toEqual(["stays#1"]);
  });

  it("refuses a waiter id it already knows and a cap below 1", () => {
    const gate = new FairGate(1, 10);
    gate.request(w("a", 1), 0);
    expect(() => gate.request(w("a", 1), 0)).toThrow(/already known/);
    expect(() => new FairGate(0, 10)).toThrow(RangeError);
  });
});

describe("interactive before batch", () => {
  it("gives the next permit to an interactive owner that waits, though batch owners queued long before", () => {
    const gate = new FairGate(2, 10_000);
    const batch = (owner: string, n: number): Waiter => ({ ...w(owner, n), batch: true });
    const first = [1, 2, 3, 4, 5].flatMap((n) => gate.request(batch("exam-q1", n), 0).granted);
    [1, 2, 3].forEach((n) => gate.request(batch("exam-q2", n), 0));
    expect(ids(first)).toEqual(["exam-q1#1", "exam-q1#2"]);
    expect(ids(gate.request(w("teacher", 1), 1).granted)).toEqual([]);
    gate.request(w("teacher", 2), 1);
    // the interactive owner's two calls go before every batch waiter
    expect(ids(gate.release("exam-q1#1", 2))).toEqual(["teacher#1"]);
    expect(ids(gate.release("exam-q1#2", 3))).toEqual(["teacher#2"]);
    // then the batch owners take turns again: one call each
    const next = [...ids(gate.release("teacher#1", 4)), ...ids(gate.release("teacher#2", 5))];
    expect(next.sort()).toEqual(["exam-q1#3", "exam-q2#1"]);
  });
});
