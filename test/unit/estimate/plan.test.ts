import { describe, expect, it } from "vitest";
import type { EvaluationInput } from "../../../src/model/evaluation";
import { anInput } from "../../support/evaluation-input";
import { callPlan, secondsFor, shownSeconds } from "../../../src/estimate/plan";

const input = (overrides: Partial<EvaluationInput> = {}): EvaluationInput =>
  anInput({
    id: "ev",
    question: "What is a stack?",
    judge: { model: null, temperature: 0.1, structuredOutputs: false, scoreFrom: "auto" },
    answers: Array.from({ length: 8 }, (_, i) => ({ id: `a${i}`, text: "x".repeat(100) })),
    ...overrides,
  });

describe("the call plan of a dry run", () => {
  it("counts each method's calls and rounds, and prompts that grow with the answers' texts", () => {
    expect(callPlan(input())).toMatchObject({ judgeCalls: 14, sequentialRounds: 3 });
    expect(callPlan(input({ debias: false, extraCalls: 8 }))).toMatchObject({ judgeCalls: 15, sequentialRounds: 5 });
    expect(callPlan(input({ method: "round-robin" }))).toMatchObject({ judgeCalls: 56, sequentialRounds: 1 });
    expect(callPlan(input({ method: "individual", debias: false }))).toMatchObject({ judgeCalls: 8, sequentialRounds: 1 });
    const short = callPlan(input());
    const long = callPlan(input({ answers: input().answers.map((a) => ({ ...a, text: "x".repeat(1100) })) }));
    // each call shows two answers: 1,000 more characters each is 2,000 more a call
    expect(long.promptChars - short.promptChars).toBe(14 * 2000);
  });

  it("counts one feedback call per answer, after the tournament, with its prompt showing one answer", () => {
    const without = callPlan(input());
    const withFeedback = callPlan(input({ feedback: "judge" }));
    expect(without.feedbackCalls).toBe(0);
    expect(withFeedback).toMatchObject({ judgeCalls: 14, feedbackCalls: 8, sequentialRounds: 4 });
    expect(withFeedback.promptChars).toBeGreaterThan(without.promptChars + 8 * 100);
    // each feedback prompt shows its one answer: 1,000 more characters each is 1,000 more a feedback call
    const long = callPlan(input({ feedback: "judge", answers: input().answers.map((a) => ({ ...a, text: "x".repeat(1100) })) }));
    expect(long.promptChars - withFeedback.promptChars).toBe(14 * 2000 + 8 * 1000);
  });

  it("is never quicker than its rounds one after another, nor than its calls spread over the slots", () => {
    expect(secondsFor(14, 3, 2, 16)).toBe(6);
    expect(secondsFor(100, 3, 2, 16)).toBe(14);
  });

  it("shows seconds in tenths rounded up, so a fast judge's few calls never read as no time at all", () => {
    // 3 rounds of a judge measured at 4 ms a call
    expect(shownSeconds(secondsFor(8, 3, 0.004, 16))).toBe(0.1);
    expect(shownSeconds(0)).toBe(0);
    expect(shownSeconds(6)).toBe(6);
    expect(shownSeconds(6.01)).toBe(6.1);
    expect(shownSeconds(0.1 + 0.2)).toBe(0.3);
  });

  it("counts a panel in all as every call to every judge: its prompts times the panel's size; in cycle, one judge's", () => {
    const one = callPlan(input());
    const all = callPlan(input({ judge: { ...input().judge, panel: ["a", "b", "c"], panelMode: "all" } }));
    const cycle = callPlan(input({ judge: { ...input().judge, panel: ["a", "b", "c"], panelMode: "cycle" } }));
    expect([one.requestsPerCall, cycle.requestsPerCall, all.requestsPerCall]).toEqual([1, 1, 3]);
    expect(all.judgeCalls).toBe(one.judgeCalls);
    expect(all.promptChars).toBe(3 * one.promptChars);
    expect(cycle.promptChars).toBe(one.promptChars);
  });
});
