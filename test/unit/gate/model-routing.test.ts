import { describe, expect, it } from "vitest";
import { FairGate, type Grant, type Waiter } from "../../../src/gate/fair-gate";

// Issue 30 item 3: a pool that serves several models (a panel of judges). Each call goes to an endpoint
// that serves its model, each model keeps its endpoints' caps, and a judge that is down is skipped.

const w = (owner: string, n: number, extra: Partial<Waiter> = {}): Waiter => ({ id: `${owner}#${n}`, owner, run: "r1", ...extra });
const where = (gs: Grant[]) => gs.map((g) => `${g.endpoint}:${g.model ?? ""}${g.skipped ? "skipped" : ""}`);
const twoModels = () =>
  new FairGate(
    [
      { id: "a", cap: 2, models: ["judge-x"] },
      { id: "b", cap: 1, models: ["judge-y", "judge-z"] },
    ],
    10_000,
  );

describe("permits over a pool of several models", () => {
  it("sends a call only to an endpoint that serves its model, and a model's calls wait for its own endpoints' room", () => {
    const gate = twoModels();
    const x = [1, 2, 3].flatMap((n) => gate.request(w("e", n, { models: ["judge-x"] }), 0).granted);
    // a's cap is 2: the third waits, though b has room (b does not serve judge-x)
    expect(where(x)).toEqual(["a:judge-x", "a:judge-x"]);
    expect(gate.stats()).toMatchObject({ inUse: 2, waiting: 1 });
    // a waiter behind it for another model goes at once: an owner's queue is not blocked by a full model
    expect(where(gate.request(w("e", 4, { models: ["judge-z"] }), 0).granted)).toEqual(["b:judge-z"]);
    expect(where(gate.request(w("e", 5, { models: ["judge-y"] }), 0).granted)).toEqual([]);
    // a frees a permit: the judge-x waiter takes it, the judge-y one still waits for b
    expect(where(gate.release(x[0].id, 1))).toEqual(["a:judge-x"]);
    expect(gate.stats().endpoints.map((e) => e.inUse)).toEqual([2, 1]);
  });

  it("takes the first model of the waiter's order whose endpoint is up: a judge that is down is skipped for the next", () => {
    const gate = twoModels();
    expect(where(gate.request(w("e", 1, { models: ["judge-x", "judge-y"] }), 0).granted)).toEqual(["a:judge-x"]);
    gate.setHealth("a", "down", 1);
    expect(where(gate.request(w("e", 2, { models: ["judge-x", "judge-y"] }), 1).granted)).toEqual(["b:judge-y"]);
    // with every judge down, the first is asked as before (the call fails and backs off)
    gate.setHealth("b", "down", 2);
    expect(where(gate.request(w("e", 3, { models: ["judge-x", "judge-y"] }), 2).granted)).toEqual(["a:judge-x"]);
  });

  it("answers skipped, with no permit, a waiter whose judge is down while another judge of its panel is up", () => {
    const gate = twoModels();
    gate.setHealth("a", "down", 0);
    const skipped = gate.request(w("e", 1, { models: ["judge-x"], skipIfDown: ["judge-y"] }), 0).granted;
    expect(where(skipped)).toEqual([":skipped"]);
    expect(gate.stats()).toMatchObject({ inUse: 0, waiting: 0 });
    // the other judge down too: nothing is up to average, so the call goes to its judge as before
    gate.setHealth("b", "down", 1);
    expect(where(gate.request(w("e", 2, { models: ["judge-x"], skipIfDown: ["judge-y"] }), 1).granted)).toEqual(["a:judge-x"]);
  });

  it("skips a waiting call whose judge goes down while it waits", () => {
    const gate = twoModels();
    gate.request(w("e", 1, { models: ["judge-x"] }), 0);
    gate.request(w("e", 2, { models: ["judge-x"] }), 0);
    expect(where(gate.request(w("e", 3, { models: ["judge-x"], skipIfDown: ["judge-y"] }), 0).granted)).toEqual([]);
    expect(where(gate.setHealth("a", "down", 1))).toEqual([":skipped"]);
  });

  it("routes a pool of one model as before: a slot without models takes any model asked", () => {
    const gate = new FairGate([{ id: "only", cap: 1 }], 10_000);
    expect(where(gate.request(w("e", 1, { models: ["anything"] }), 0).granted)).toEqual(["only:anything"]);
  });

  it("keeps interactive owners first over the waiters that can go now", () => {
    const gate = twoModels();
    gate.request(w("batch", 1, { batch: true, models: ["judge-x"] }), 0);
    gate.request(w("batch", 2, { batch: true, models: ["judge-x"] }), 0);
    gate.request(w("batch", 3, { batch: true, models: ["judge-x"] }), 0);
    const held = gate.request(w("q", 1, { models: ["judge-x"] }), 0).granted;
    expect(held).toEqual([]);
    // a frees one: the interactive question takes it, not the batch's waiter queued before it
    expect(gate.release("batch#1", 1).map((g) => g.owner)).toEqual(["q"]);
  });
});
