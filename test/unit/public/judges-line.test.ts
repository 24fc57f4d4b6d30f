import { describe, expect, it } from "vitest";
import type { JudgesView } from "../../../src/gate/judges-view";
// @ts-expect-error plain JS module of the web front
import { judgesLine } from "../../../public/js/judges.js";

const endpoint = (url: string, state: string, p50: number | null) => ({
  url,
  model: "qwen",
  cap: 16,
  weight: 1,
  inFlight: 0,
  served: 10,
  failed: 0,
  latencyMs: p50 === null ? null : { p50, p95: p50 * 2, calls: 10 },
  circuit: { state, failuresInARow: 0, openedAt: null, nextProbeAt: null, reason: null },
});
const view = (endpoints: ReturnType<typeof endpoint>[], inFlight = 5, waiting = 0): JudgesView =>
  ({ model: "qwen", capacity: 32, inFlight, waiting, admission: { limit: 128, running: 2, queued: 0 }, endpoints }) as JudgesView;

describe("the judge status line", () => {
  it("says how many servers are up, the load, and the slowest median", () => {
    expect(judgesLine(view([endpoint("http://a/v1", "closed", 800), endpoint("http://b/v1", "closed", 1200)], 5, 3))).toBe(
      "Judge: 2 of 2 servers up (qwen) · 5 of 32 calls in flight, 3 waiting · median 1.2 s",
    );
  });

  it("names the servers that are down or out", () => {
    expect(
      judgesLine(
        view([endpoint("http://a/v1", "closed", 800), endpoint("http://b/v1", "open", null), endpoint("http://c/v1", "out", null)]),
      ),
    ).toBe("Judge: 1 of 3 servers up (qwen) · 5 of 32 calls in flight · median 800 ms · http://b/v1 down, http://c/v1 out (another model)");
  });

  it("speaks of one judge when there is one", () => {
    expect(judgesLine(view([endpoint("http://a/v1", "open", null)], 0))).toBe("Judge down (qwen) · 0 of 32 calls in flight");
  });
});
