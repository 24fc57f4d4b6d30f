import { describe, expect, inject, it } from "vitest";
import { answers, judgeLog, newKey, postEvaluation, uniqueTag, waitUntilDone } from "./helpers";

const BIAS = 0.5; // the test judge's bonus for the answer it sees first
const quality = (text: string) => Number(text.match(/q=(\d+(?:\.\d+)?)/)![1]);

async function grade(body: Record<string, unknown>) {
  const key = await newKey("school");
  return { key, result: await waitUntilDone(await postEvaluation(key, body), key) };
}

describe("a full evaluation of 7 answers against a real judge server", () => {
  const qualities = [2, 7, 4, 9, 1, 5, 3];
  const list = answers(qualities);
  const q = new Map(list.map((a) => [a.id, quality(a.text)]));

  for (const debias of [true, false]) {
    it(`completes with every call attributed to the right answers (debias=${debias})`, async () => {
      const tag = uniqueTag(`seven-${debias}`);
      const { result } = await grade({ question: `Explain a stack. [tag:${tag}]`, answers: list, debias, seed: 11, maxScore: 10 });

      expect(result.status).toBe("completed");
      expect(result.matches).toHaveLength(6);
      const perMatch = debias ? 2 : 1;
      expect(result.usage.judgeCalls).toBe(6 * perMatch);
      expect(result.usage.retries).toBe(0);
      expect(result.usage.parseFailures).toBe(0);
      expect(result.usage.promptTokens).toBeGreaterThan(0);

      for (const m of result.matches) {
        expect(m.calls).toHaveLength(perMatch);
        expect(m.calls[0].order).toEqual([m.a, m.b]);
        if (debias) expect(m.calls[1].order).toEqual([m.b, m.a]);
        // the judge gave the first-seen answer its quality plus the bias: the scores must follow the order
        for (const c of m.calls) {
          expect(c.scores).toEqual([Math.min(10, q.get(c.order[0])! + BIAS), q.get(c.order[1])!]);
          expect(c.raw).toMatch(/Answer 1: .* Answer 2: /);
          // a pool of one (JUDGE_BASE_URL): every call answered there, and says so
          expect(c.endpoint).toBe(`http://127.0.0.1:${inject("judgePort")}/v1`);
        }
        const expectedA = debias ? q.get(m.a)! + BIAS / 2 : q.get(m.a)! + BIAS;
        expect(m.scoreA).toBeCloseTo(expectedA, 10);
        expect(m.scoreB).toBeCloseTo(debias ? q.get(m.b)! + BIAS / 2 : q.get(m.b)!, 10);
        expect(m.winner).toBe(m.scoreA > m.scoreB ? m.a : m.b);
      }

      // debiased, the best answer wins every match; its final score is its quality plus half the bias
      if (debias) {
        expect(result.champion).toBe("s4");
        const champ = result.answers.find((a: { id: string }) => a.id === "s4");
        expect(champ.eliminatedInRound).toBeNull();
        expect(champ.score).toBeCloseTo(9 + BIAS / 2, 10);
        expect(champ.scores).toHaveLength(3);
      }
      for (const a of result.answers) {
        expect(a.score).toBeCloseTo(a.scores.reduce((s: number, x: number) => s + x, 0) / a.scores.length, 10);
      }
      expect(result.answers.filter((a: { eliminatedInRound: number | null }) => a.eliminatedInRound === null)).toHaveLength(1);
      expect(result.answers.map((a: { rank: number }) => a.rank).sort()).toContain(1);

      // the judge was asked exactly these calls, each once, in these orders
      const log = await judgeLog(tag);
      expect(log).toHaveLength(6 * perMatch);
      const asked = log.map((e) => e.qualities.join(",")).sort();
      const recorded = result.matches
        .flatMap((m: { calls: { order: string[] }[] }) => m.calls.map((c) => c.order.map((id) => q.get(id)).join(",")))
        .sort();
      expect(asked).toEqual(recorded);
      // every answer text reached the judge verbatim
      for (const a of list) expect(log.some((e) => e.prompt.includes(a.text))).toBe(true);
    });
  }

  it("asks the configured model at the paper's temperature 0.1, unless the evaluation says otherwise", async () => {
    const plain = uniqueTag("defaults");
    await grade({ question: `Q [tag:${plain}]`, answers: answers([1, 2]), debias: false });
    expect((await judgeLog(plain)).map((e) => [e.model, e.temperature])).toEqual([["test-judge", 0.1]]);
    const own = uniqueTag("own-judge");
    await grade({ question: `Q [tag:${own}]`, answers: answers([1, 2]), debias: false, judge: { model: "llama-3.1-70b", temperature: 0 } });
    expect((await judgeLog(own)).map((e) => [e.model, e.temperature])).toEqual([["llama-3.1-70b", 0]]);
  });

  it("gives the same tournament for the same seed and judge", async () => {
    const body = (tag: string) => ({ question: `Explain a queue. [tag:${tag}]`, answers: list, seed: 99 });
    const one = (await grade(body(uniqueTag("same-a")))).result;
    const two = (await grade(body(uniqueTag("same-b")))).result;
    const shape = (r: { matches: { a: string; b: string; winner: string }[]; answers: unknown }) => ({
      matches: r.matches.map((m) => [m.a, m.b, m.winner]),
      answers: r.answers,
    });
    expect(shape(two)).toEqual(shape(one));
  });

  it("uses the German and translation templates' labels and scales", async () => {
    const de = await grade({
      question: `Was ist ein Stack? [tag:${uniqueTag("de")}]`,
      answers: answers([3, 6, 2]),
      template: "exam-de",
      maxScore: 8,
    });
    expect(de.result.status).toBe("completed");
    expect(de.result.matches[0].calls[0].raw).toMatch(/Antwort 1: .*\/8 Antwort 2: /);
    const mt = await grade({
      question: `Der Hund schläft. [tag:${uniqueTag("mt")}]`,
      answers: answers([60, 80, 20]),
      template: "translation",
    });
    expect(mt.result.maxScore).toBe(100);
    expect(mt.result.matches[0].calls[0].raw).toMatch(/Translation 1: .*\/100/);
  });
});

describe("faults at the judge", () => {
  it("retries 503s and completes, counting the retries", async () => {
    const tag = uniqueTag("503");
    const { result } = await grade({ question: `Q [tag:${tag}] [fault:503*3]`, answers: answers([1, 2, 3]), debias: false });
    expect(result.status).toBe("completed");
    expect(result.usage.retries).toBe(3);
    expect(result.usage.judgeCalls).toBe(2);
    const log = await judgeLog(tag);
    expect(log.filter((e) => e.outcome === "503")).toHaveLength(3);
    expect(log.filter((e) => e.outcome === "ok")).toHaveLength(2);
  });

  it("abandons a hung reply after the timeout and asks again", async () => {
    const tag = uniqueTag("hang");
    const { result } = await grade({ question: `Q [tag:${tag}] [fault:hang*1]`, answers: answers([1, 2]), debias: false });
    expect(result.status).toBe("completed");
    expect(result.usage.retries).toBe(1);
    expect((await judgeLog(tag)).map((e) => e.outcome)).toEqual(["hang", "ok"]);
  });

  it("retries a 200 with a broken body", async () => {
    const tag = uniqueTag("badjson");
    const { result } = await grade({ question: `Q [tag:${tag}] [fault:badjson*1]`, answers: answers([1, 2]), debias: false });
    expect(result.status).toBe("completed");
    expect(result.usage.retries).toBe(1);
  });

  it("does not retry a request the judge refuses (4xx), and fails visibly", async () => {
    const tag = uniqueTag("400");
    const { result } = await grade({ question: `Q [tag:${tag}] [fault:400*always]`, answers: answers([1, 2]), debias: false });
    expect(result.status).toBe("failed");
    expect(result.error).toMatch(/match 1 .*judge answered 400: .*maximum context length/);
    expect(result.usage.retries).toBe(0);
    expect(await judgeLog(tag)).toHaveLength(1);
  });

  it("re-asks an unparseable reply and counts it as a parse failure, never as a zero", async () => {
    const tag = uniqueTag("garbage");
    const { result } = await grade({ question: `Q [tag:${tag}] [fault:garbage*2]`, answers: answers([4, 6]), debias: false });
    expect(result.status).toBe("completed");
    expect(result.usage.parseFailures).toBe(2);
    expect(result.usage.judgeCalls).toBe(1);
    expect(result.matches[0].calls[0].scores).not.toContain(0);
  });

  it("fails the evaluation visibly when a match stays unparseable, naming the match", async () => {
    const tag = uniqueTag("always");
    const { result } = await grade({ question: `Q [tag:${tag}] [fault:garbage*always]`, answers: answers([4, 6]), debias: false });
    expect(result.status).toBe("failed");
    expect(result.error).toMatch(/match 1 \(round 1, s\d vs s\d, call 1\).*could not be parsed after 5 attempts/);
    expect(result.usage.parseFailures).toBe(5);
    expect(result.usage.judgeCalls).toBe(0);
    expect(result.champion).toBeNull();
  });
});
