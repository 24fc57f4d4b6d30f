import { describe, expect, it } from "vitest";
import { methodCore } from "../../../src/core/methods";
import type { EvaluationInput } from "../../../src/model/evaluation";
import { anInput } from "../../support/evaluation-input";
import { type Counters, detailOf, outcomeOf, replay, usageSoFar, viewOf } from "../../../src/evaluations/played";
import { firstState } from "../../../src/evaluations/first-state";
import type { JudgedCall } from "../../../src/judge/play";

const input = (overrides: Partial<EvaluationInput> = {}): EvaluationInput =>
  anInput({
    seed: 3,
    answers: Array.from({ length: 7 }, (_, i) => ({ id: `a${i + 1}`, text: `text ${i + 1}`, ...(i === 0 ? { examinee: "model-x" } : {}) })),
    ...overrides,
  });

/**
 * Plays the input to the end as the Durable Object does, with a judge that scores by the id's number;
 * `fromBack` answers the open calls last to first, as replies that come back in another order.
 */
function played(i: EvaluationInput, fromBack = false): JudgedCall[] {
  const first = firstState(i);
  if (!first.ok) throw new Error(first.reason);
  const method = methodCore(i.method);
  let state = first.state;
  const results: JudgedCall[] = [];
  while (!method.isFinished(state)) {
    const open = method.openCalls(state);
    for (const c of fromBack ? open.reverse() : open) {
      const scores = c.order.map((id, k) => (Number(id.slice(1)) % 9) + (k === 0 ? 0.5 : 0));
      const r: JudgedCall = {
        match: c.match,
        call: c.call,
        scores,
        expected: null,
        spread: null,
        unheld: null,
        parseRetried: false,
        endpoint: null,
        raw: `words of ${c.match}.${c.call}`,
        promptTokens: 10,
        completionTokens: 2,
      };
      state = method.record(state, r.match, r.call, r.scores, detailOf(r));
      results.push(r);
    }
  }
  return results;
}

const counters = (c: Partial<Counters> = {}): Counters => ({
  retries: 0,
  parseFailures: 0,
  promptTokens: 0,
  completionTokens: 0,
  sharedPrefixTokens: 0,
  ...c,
});

describe("an evaluation as played, rebuilt from its recorded results", () => {
  it("is the same tournament whatever order the replies came back in, and its replay is the tournament as played", () => {
    for (const method of ["knockout", "individual", "pairwise", "round-robin"] as const) {
      const i = input({ method });
      const [inOrder, reversed] = [played(i), played(i, true)];
      expect(
        reversed.map((r) => `${r.match}.${r.call}`),
        method,
      ).not.toEqual(inOrder.map((r) => `${r.match}.${r.call}`));
      const outcome = outcomeOf(i, replay(i, inOrder), inOrder);
      expect(outcomeOf(i, replay(i, reversed), reversed), method).toEqual(outcome);
      expect(
        outcome.answers.every((a) => a.score !== null),
        method,
      ).toBe(true);
      expect(methodCore(method).isFinished(replay(i, inOrder))).toBe(true);
    }
  });

  it("is not a tournament for an input the method refuses: its answers as posted, unscored", () => {
    const refused = input({ answers: [{ id: "x", text: "only one" }] });
    expect(replay(refused, [])).toBeNull();
    expect(outcomeOf(refused, null, [])).toMatchObject({ champion: null, answers: [{ id: "x", score: null, text: "only one" }] });
  });

  it("gives each answer its text and examinee, and each call the judge's words", () => {
    const i = input();
    const results = played(i);
    const outcome = outcomeOf(i, replay(i, results), results);
    for (const a of outcome.answers) expect(a.text).toBe(`text ${a.id.slice(1)}`);
    expect(outcome.answers.find((a) => a.id === "a1")?.examinee).toBe("model-x");
    expect(outcome.answers.filter((a) => a.examinee !== undefined)).toHaveLength(1);
    const words = outcome.matches.flatMap((m) => m.calls.map((c) => c.raw));
    expect(new Set(words)).toEqual(new Set(results.map((r) => r.raw)));
  });

  it("counts its usage from the counters, the shared prefix as a share to three places", () => {
    const i = input();
    const results = played(i);
    const u = usageSoFar(counters({ promptTokens: 3000, sharedPrefixTokens: 2000, retries: 2 }), results.length, i, replay(i, results));
    expect(u).toMatchObject({ judgeCalls: 12, promptTokens: 3000, sharedPrefixShare: 0.667, retries: 2, extraCalls: 0, callsSaved: 0 });
    expect(usageSoFar(counters(), 0).sharedPrefixShare).toBe(0);
  });

  it("reads a knockout's extra calls from its state, and no other method's", () => {
    const extra = input({ extraCalls: 4 });
    const results = played(extra);
    expect(results).toHaveLength(12 + 4);
    expect(usageSoFar(counters(), results.length, extra, replay(extra, results)).extraCalls).toBe(4);
    const rr = input({ method: "round-robin" });
    expect(usageSoFar(counters(), 0, rr, replay(rr, [])).extraCalls).toBe(0);
  });

  it("shows viewers the bracket without the judge's words, its progress out of the method's call count", () => {
    const i = input();
    const results = played(i);
    const half = results.slice(0, 5);
    const view = viewOf(i, { status: "running", error: null }, replay(i, half), usageSoFar(counters(), half.length, i));
    expect(view.progress).toEqual({ done: 5, total: 12 });
    expect(view).toMatchObject({ id: "ev_1", method: "knockout", answerCount: 7, maxScore: 10, status: "running", champion: null });
    expect(JSON.stringify(view)).not.toContain("words of");
    const refused = input({ answers: [{ id: "x", text: "t" }] });
    expect(viewOf(refused, { status: "failed", error: "e" }, null, usageSoFar(counters(), 0)).progress).toEqual({ done: 0, total: 0 });
  });
});
