import { describe, expect, it } from "vitest";
import { closedCircuit, failed, probed, probeDue, probing, succeeded } from "../../../src/gate/circuit";
import { LatencyWindow } from "../../../src/gate/latency";

const policy = { threshold: 3, firstBackoffMs: 1_000, maxBackoffMs: 4_000 };

describe("an endpoint's circuit", () => {
  it("opens on the threshold-th fault in a row, not before, and a success in between starts the count again", () => {
    let c = closedCircuit(policy);
    c = failed(c, 0, policy);
    c = failed(c, 1, policy);
    expect(c.state).toBe("closed");
    c = succeeded(c, policy);
    c = failed(failed(c, 2, policy), 3, policy);
    expect(c.state).toBe("closed");
    c = failed(c, 4, policy);
    expect(c).toMatchObject({ state: "open", failures: 3, probeAt: 1_004, openedAt: 4 });
  });

  it("is probed after its backoff; a failed probe doubles the wait up to the cap, an answered one closes it", () => {
    let c = failed(failed(failed(closedCircuit(policy), 0, policy), 0, policy), 0, policy);
    expect(probeDue(c, 999)).toBe(false);
    expect(probeDue(c, 1_000)).toBe(true);
    const waits: number[] = [];
    for (let t = 1_000; waits.length < 4; ) {
      c = probed(probing(c), false, t, policy);
      waits.push(c.probeAt! - t);
      t = c.probeAt!;
    }
    expect(waits).toEqual([2_000, 4_000, 4_000, 4_000]);
    expect(c.openedAt).toBe(0);
    c = probed(probing(c), true, 20_000, policy);
    expect(c).toEqual(closedCircuit(policy));
  });

  it("closes when a call on it succeeds, whatever its state", () => {
    const open = failed(failed(failed(closedCircuit(policy), 0, policy), 0, policy), 0, policy);
    expect(succeeded(open, policy).state).toBe("closed");
  });
});

describe("the latency window", () => {
  it("gives the median and the 95th percentile of the calls in the last minutes only", () => {
    const w = new LatencyWindow(60_000);
    expect(w.quantiles(0)).toBeNull();
    for (let i = 1; i <= 100; i++) w.add(i * 10, i);
    expect(w.quantiles(100)).toEqual({ p50: 500, p95: 950, n: 100 });
    w.add(5, 60_050);
    // the first 50 samples (at 1..50 ms) are older than a minute at 60,050
    expect(w.quantiles(60_050)).toEqual({ p50: 750, p95: 980, n: 51 });
    expect(w.quantiles(200_000)).toBeNull();
  });
});
