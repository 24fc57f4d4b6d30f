import { describe, expect, it } from "vitest";
import { FairGate, type Grant, type Waiter } from "../../../src/gate/fair-gate";

const w = (owner: string, n: number, extra: Partial<Waiter> = {}): Waiter => ({ id: `${owner}#${n}`, owner, run: "r1", ...extra });
const where = (gs: Grant[]) => gs.map((g) => g.endpoint);

describe("permits over a pool of judge endpoints", () => {
  it("sends each permit to the least loaded endpoint relative to its cap", () => {
    const gate = new FairGate(
      [
        { id: "a", cap: 2 },
        { id: "b", cap: 4 },
      ],
      10_000,
    );
    const granted = [1, 2, 3, 4, 5, 6, 7].flatMap((n) => gate.request(w("e", n), 0).granted);
    // (in use + 1) / cap: a 1/2 vs b 1/4 → b; a 1/2 vs b 2/4, a tie → a (list order); a 2/2 vs b 3/4 → b ...
    expect(where(granted)).toEqual(["b", "a", "b", "b", "a", "b"]);
    expect(gate.stats()).toMatchObject({ cap: 6, inUse: 6, waiting: 1 });
    expect(gate.stats().endpoints.map((e) => e.inUse)).toEqual([2, 4]);
    // a permit freed on b is taken on b: nowhere else has room
    const next = gate.release(granted[0].id, 1);
    expect(where(next)).toEqual(["b"]);
  });

  it("weights the load: a weight-3 endpoint takes three calls for one of a weight-1 endpoint of the same cap", () => {
    const gate = new FairGate(
      [
        { id: "slow", cap: 8, weight: 1 },
        { id: "fast", cap: 8, weight: 3 },
      ],
      10_000,
    );
    const granted = [1, 2, 3, 4, 5, 6, 7, 8].flatMap((n) => gate.request(w("e", n), 0).granted);
    expect(where(granted).filter((e) => e === "fast")).toHaveLength(6);
  });

  it("never sends to an endpoint that is down while another is up, and none above any cap", () => {
    for (let seed = 1; seed <= 40; seed++) {
      let x = seed;
      const rand = () => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0) % 1000) / 1000;
      const caps = [1 + Math.floor(rand() * 4), 1 + Math.floor(rand() * 4), 1 + Math.floor(rand() * 4)];
      const gate = new FairGate(
        caps.map((cap, i) => ({ id: `e${i}`, cap })),
        1e9,
      );
      const health = new Map(caps.map((_, i) => [`e${i}`, "up" as "up" | "down" | "out"]));
      const held = new Map<string, string>();
      const take = (gs: Grant[]) => {
        for (const g of gs) {
          const states = [...health.values()];
          expect(health.get(g.endpoint)).toBe(states.includes("up") ? "up" : states.includes("down") ? "down" : "out");
          held.set(g.id, g.endpoint);
        }
      };
      let n = 0;
      for (let step = 0; step < 300; step++) {
        const r = rand();
        if (r < 0.1) {
          const e = `e${Math.floor(rand() * 3)}`;
          const h = (["up", "down", "out"] as const)[Math.floor(rand() * 3)];
          health.set(e, h);
          take(gate.setHealth(e, h, step));
        } else if (r < 0.6 || held.size === 0) {
          take(
            gate.request(w(`o${Math.floor(rand() * 4)}`, n++, rand() < 0.3 ? { avoid: `e${Math.floor(rand() * 3)}` } : {}), step).granted,
          );
        } else {
          const ids = [...held.keys()];
          const id = ids[Math.floor(rand() * ids.length)];
          held.delete(id);
          take(gate.release(id, step));
        }
        const counts = caps.map((_, i) => [...held.values()].filter((e) => e === `e${i}`).length);
        counts.forEach((c, i) => expect(c).toBeLessThanOrEqual(caps[i]));
        expect(gate.stats().endpoints.map((e) => e.inUse)).toEqual(counts);
      }
    }
  });

  it("sends a retry elsewhere when another endpoint has room, and back to the one it avoids when none has", () => {
    const gate = new FairGate(
      [
        { id: "a", cap: 1 },
        { id: "b", cap: 1 },
      ],
      10_000,
    );
    expect(where(gate.request(w("e", 1, { avoid: "a" }), 0).granted)).toEqual(["b"]);
    expect(where(gate.request(w("e", 2, { avoid: "a" }), 0).granted)).toEqual(["a"]);
  });

  it("with every endpoint down still sends (the calls fail and back off as with one judge); an endpoint out is never sent to", () => {
    const gate = new FairGate(
      [
        { id: "a", cap: 2 },
        { id: "b", cap: 2 },
      ],
      10_000,
    );
    gate.setHealth("a", "out", 0);
    gate.setHealth("b", "down", 0);
    const granted = [1, 2, 3].flatMap((n) => gate.request(w("e", n), 0).granted);
    expect(where(granted)).toEqual(["b", "b"]);
    // a coming up takes the waiter at once
    expect(where(gate.setHealth("a", "up", 1))).toEqual(["a"]);
    // with a up, b (down) gets nothing more even with room
    gate.release(granted[0].id, 2);
    expect(where(gate.request(w("e", 4), 2).granted)).toEqual(["a"]);
    expect(gate.stats().endpoints.map((e) => e.inUse)).toEqual([2, 1]);
  });

  it("an expired or dropped permit frees its own endpoint's place", () => {
    const gate = new FairGate(
      [
        { id: "a", cap: 1 },
        { id: "b", cap: 1 },
      ],
      100,
    );
    gate.request(w("x", 1), 0);
    gate.request({ id: "y#1", owner: "y", run: "r1" }, 0);
    expect(gate.stats().endpoints.map((e) => e.inUse)).toEqual([1, 1]);
    gate.forget("y", 1);
    expect(gate.stats().endpoints.map((e) => e.inUse)).toEqual([1, 0]);
    gate.expire(200);
    expect(gate.stats().endpoints.map((e) => e.inUse)).toEqual([0, 0]);
  });
});

describe("permits when every endpoint is out", () => {
  it("still go out (to fail there, saying why) rather than wait forever", () => {
    const gate = new FairGate(
      [
        { id: "a", cap: 1 },
        { id: "b", cap: 1 },
      ],
      10_000,
    );
    gate.setHealth("a", "out", 0);
    gate.setHealth("b", "out", 0);
    expect(gate.request(w("e", 1), 0).granted.map((g) => g.endpoint)).toEqual(["a"]);
  });
});
