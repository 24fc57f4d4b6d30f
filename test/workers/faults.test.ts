import { describe, expect, it } from "vitest";
import { answers, judgeLog, newKey, postEvaluation, uniqueTag, waitUntilDone } from "./helpers";

describe("a judge that is down for a while", () => {
  it("is waited for with backoff past any fixed number of attempts, and the evaluation completes", async () => {
    const key = await newKey("patient");
    const tag = uniqueTag("down");
    // 12 failures in a row: more than the old 8-attempt limit, well inside the 3 s test deadline
    const id = await postEvaluation(key, { question: `Q [tag:${tag}] [fault:503*12]`, answers: answers([1, 2]), debias: false });
    const result = await waitUntilDone(id, key);
    expect(result.status).toBe("completed");
    expect(result.usage.retries).toBe(12);
    expect(result.usage.judgeCalls).toBe(1);
  });

  it("fails the evaluation with a clear error once JUDGE_DEADLINE_MS has passed since the first failure", async () => {
    const key = await newKey("patient");
    const tag = uniqueTag("dead");
    const id = await postEvaluation(key, { question: `Q [tag:${tag}] [fault:503*always]`, answers: answers([1, 2]), debias: false });
    const result = await waitUntilDone(id, key);
    expect(result.status).toBe("failed");
    expect(result.error).toMatch(
      /match 1 .*the judge kept failing for \d+ s \(\d+ attempts; JUDGE_DEADLINE_MS is 6000\); last error: judge answered 503/,
    );
    expect(result.usage.retries).toBeGreaterThan(5);
  });
});

describe("a judge with 20% 503s, 10% unparseable replies and 2% replies that never come", () => {
  it("completes every evaluation with every call scored exactly once, counting retries and parse failures", async () => {
    const key = await newKey("faulty");
    const qualities = [3, 8, 1, 6, 4, 7, 2, 5];
    const runs = await Promise.all(
      [1, 2, 3, 4, 5, 6].map(async (seed) => {
        const tag = uniqueTag(`faults${seed}`);
        const id = await postEvaluation(key, {
          question: `Explain a heap. [tag:${tag}] [faults:503=0.2,garbage=0.1,hang=0.02,seed=${seed}]`,
          answers: answers(qualities),
          seed,
        });
        return { tag, id };
      }),
    );
    let faults = 0;
    const kinds = new Set<string>();
    for (const { tag, id } of runs) {
      const result = await waitUntilDone(id, key, 25_000);
      // the error, should it fail, is in the message
      expect({ status: result.status, error: result.error ?? null }).toEqual({ status: "completed", error: null });
      expect(result.matches).toHaveLength(7);
      expect(result.usage.judgeCalls).toBe(14);
      const log = await judgeLog(tag);
      const of = (kind: string) => log.filter((e) => e.outcome === kind);
      // every good reply was recorded exactly once: none lost, none asked for twice
      expect(of("ok")).toHaveLength(14);
      const recorded = result.matches.flatMap((m: { calls: { scores: number[] }[] }) => m.calls.map((c) => c.scores.join(","))).sort();
      expect(
        of("ok")
          .map((e) => e.scores.join(","))
          .sort(),
      ).toEqual(recorded);
      // transport faults are retries; unparseable replies are parse failures (re-asked, never a zero)
      expect(result.usage.retries).toBe(of("503").length + of("hang").length);
      expect(result.usage.parseFailures).toBe(of("garbage").length);
      faults += log.length - 14;
      for (const e of log) kinds.add(e.outcome);
      for (const m of result.matches) expect(m.winner).toBe(m.scoreA > m.scoreB ? m.a : m.b);
    }
    expect(faults).toBeGreaterThan(0); // the fault mode really injected faults
    // of every kind: the fates are drawn per prompt and attempt, so these runs always meet each of them
    expect([...kinds].sort()).toEqual(["503", "garbage", "hang", "ok"]);
  });
});
