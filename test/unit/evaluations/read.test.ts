import { describe, expect, it } from "vitest";
import type { EvaluationInput } from "../../../src/model/evaluation";
import { notModified, weakTag } from "../../../src/evaluations/etag";
import { joinJson, playedPart, stateVersion } from "../../../src/evaluations/live-read";
import { outcomeOf, replay, usageSoFar } from "../../../src/evaluations/played";
import { textsWanted, withoutTexts } from "../../../src/evaluations/texts";
import { ProblemError } from "../../../src/platform/problems";
import { anInput } from "../../support/evaluation-input";

const counters = { retries: 0, parseFailures: 0, promptTokens: 0, completionTokens: 0, sharedPrefixTokens: 0 };

const input: EvaluationInput = anInput({
  seed: 3,
  answers: Array.from({ length: 5 }, (_, i) => ({ id: `a${i + 1}`, text: `the text of answer ${i + 1}` })),
});

describe("entity tags", () => {
  it("are weak, the same for the same text and different for another", () => {
    expect(weakTag("a/running/4")).toMatch(/^W\/"[0-9a-z]+"$/);
    expect(weakTag("a/running/4")).toBe(weakTag("a/running/4"));
    expect(weakTag("a/running/4")).not.toBe(weakTag("a/running/5"));
  });

  it("match If-None-Match by weak comparison, in a list, or as *", () => {
    const tag = weakTag("x");
    const opaque = tag.slice(2);
    expect(notModified(tag, tag)).toBe(true);
    expect(notModified(opaque, tag)).toBe(true);
    expect(notModified(`W/"other", ${tag}`, tag)).toBe(true);
    expect(notModified("*", tag)).toBe(true);
    expect(notModified(undefined, tag)).toBe(false);
    expect(notModified("", tag)).toBe(false);
    expect(notModified(`W/"other"`, tag)).toBe(false);
  });
});

describe("a running evaluation's read", () => {
  it("has a version that moves with the status, each result and each counter", () => {
    const base = stateVersion("e", "running", 4, counters);
    expect(stateVersion("e", "running", 4, { ...counters })).toBe(base);
    expect(stateVersion("e", "running", 5, counters)).not.toBe(base);
    expect(stateVersion("e", "failed", 4, counters)).not.toBe(base);
    expect(stateVersion("e", "running", 4, { ...counters, retries: 1 })).not.toBe(base);
    expect(stateVersion("e", "running", 4, { ...counters, promptTokens: 7 })).not.toBe(base);
    // a feedback written after the tournament changes the result (its answer shows it)
    expect(stateVersion("e", "running", 4, counters, 1)).not.toBe(base);
  });

  it("joined to its head reads as the head and the part spread into one object", () => {
    const state = replay(input, []);
    const part = playedPart(input, {
      status: "running",
      error: null,
      outcome: outcomeOf(input, state, []),
      usage: usageSoFar(counters, 0, input, state),
    });
    const head = { id: "e", question: "Why?", createdAt: "2026-01-01T00:00:00.000Z" };
    expect(JSON.parse(joinJson(head, JSON.stringify(part)))).toEqual({ ...head, ...part });
    expect(JSON.parse(joinJson({}, JSON.stringify(part)))).toEqual(part);
    expect(JSON.parse(joinJson(head, "{}"))).toEqual(head);
    // a running evaluation has no teacher's part yet, and each answer has its text
    expect(part).toMatchObject({ status: "running", agreement: null, calibration: null });
    expect(part.answers.map((a) => a.text)).toEqual(input.answers.map((a) => a.text));
    expect(part.answers.every((a) => a.teacherScore === null && a.calibrated === null)).toBe(true);
  });

  it("says the review rule of its input, and 0.15 by the share alone for an input stored before the fields", () => {
    const read = (i: EvaluationInput) =>
      playedPart(i, {
        status: "running",
        error: null,
        outcome: outcomeOf(i, replay(i, []), []),
        usage: usageSoFar(counters, 0, i, replay(i, [])),
      });
    expect(read({ ...input, reviewShare: 0.4, reviewThreshold: 0.3 }).review).toEqual({
      rule: "share-or-threshold",
      share: 0.4,
      threshold: 0.3,
      flagged: 0,
    });
    const { reviewShare: _, reviewThreshold: __, ...before } = input;
    expect(read(before).review).toEqual({ rule: "share", share: 0.15, threshold: null, flagged: 0 });
  });
});

describe("?exclude=texts", () => {
  it("is the whole result when absent, no texts with `texts`, and refused otherwise, naming the parameter", () => {
    expect(textsWanted(undefined)).toBe(true);
    expect(textsWanted("")).toBe(true);
    expect(textsWanted("texts")).toBe(false);
    try {
      textsWanted("answers");
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ProblemError);
      expect((err as ProblemError).status).toBe(400);
      expect((err as ProblemError).errors).toEqual([{ field: "exclude", reason: 'must be "texts" (or absent)' }]);
    }
  });

  it("leaves out answers' texts and the judge's words, and nothing else", () => {
    const view = {
      id: "e",
      answers: [{ id: "a1", text: "long", score: 3 }],
      matches: [{ a: "a1", b: "a2", calls: [{ order: ["a1", "a2"], scores: [3, 2], raw: "words", endpoint: null }] }],
    };
    expect(withoutTexts(view)).toEqual({
      id: "e",
      answers: [{ id: "a1", score: 3 }],
      matches: [{ a: "a1", b: "a2", calls: [{ order: ["a1", "a2"], scores: [3, 2], endpoint: null }] }],
    });
    expect(view.answers[0].text).toBe("long");
  });
});
