import { describe, expect, it } from "vitest";
import { collectionBody, evaluationBody, fieldErrors, parseBatchBody, reviewRuleOf } from "../../../src/contract";
import { withConfidence } from "../../../src/evaluations/confidence";
import type { AnswerView, MatchView } from "../../../src/core/outcome";

const answers = [
  { id: "a", text: "x" },
  { id: "b", text: "y" },
];
const body = { question: "Explain a stack.", answers };

/** The fields a body is refused for, with their reasons. */
function refused(json: unknown) {
  const parsed = evaluationBody.safeParse(json);
  return parsed.success ? [] : fieldErrors(parsed.error);
}

describe("reviewShare and reviewThreshold on an evaluation", () => {
  it("default to the 15% most likely wrong and no threshold", () => {
    const b = evaluationBody.parse(body);
    expect(b.reviewShare).toBe(0.15);
    expect(b.reviewThreshold).toBeUndefined();
  });

  it("take a share in (0, 1] and a threshold in (0, 1)", () => {
    expect(evaluationBody.parse({ ...body, reviewShare: 1, reviewThreshold: 0.5 })).toMatchObject({ reviewShare: 1, reviewThreshold: 0.5 });
    expect(evaluationBody.parse({ ...body, reviewShare: 0.01, reviewThreshold: 0.999 })).toMatchObject({ reviewShare: 0.01 });
  });

  it.each([
    [{ reviewShare: 0 }, "reviewShare", "must be greater than 0"],
    [{ reviewShare: -0.1 }, "reviewShare", "must be greater than 0"],
    [{ reviewShare: 1.01 }, "reviewShare", "must be at most 1"],
    [{ reviewShare: "0.2" }, "reviewShare", expect.any(String)],
    [{ reviewThreshold: 0 }, "reviewThreshold", "must be greater than 0"],
    [{ reviewThreshold: 1 }, "reviewThreshold", "must be less than 1"],
    [{ reviewThreshold: null }, "reviewThreshold", expect.any(String)],
  ])("refuse %j, naming the field", (fields, field, reason) => {
    expect(refused({ ...body, ...fields })).toEqual([{ field, reason }]);
  });

  it("in a batch: from defaults, an item's own winning, and a bad one named with its item", () => {
    const ok = parseBatchBody({ defaults: { reviewShare: 0.3 }, items: [body, { ...body, reviewShare: 0.5, reviewThreshold: 0.4 }] });
    expect(ok.ok && ok.value.items.map((i) => [i.reviewShare, i.reviewThreshold])).toEqual([
      [0.3, undefined],
      [0.5, 0.4],
    ]);
    expect(parseBatchBody({ items: [body, { ...body, reviewThreshold: 2 }] })).toEqual({
      ok: false,
      errors: [{ field: "items[1].reviewThreshold", reason: "must be less than 1" }],
    });
    expect(parseBatchBody({ defaults: { reviewShare: 0 }, items: [body] })).toEqual({
      ok: false,
      errors: [{ field: "defaults.reviewShare", reason: "must be greater than 0" }],
    });
  });

  it("on a collection, which hands them to its evaluation", () => {
    const collection = { question: "Explain a stack.", allowedOrigins: ["https://example.com"] };
    expect(collectionBody.parse({ ...collection, reviewShare: 0.25, reviewThreshold: 0.6 })).toMatchObject({
      reviewShare: 0.25,
      reviewThreshold: 0.6,
    });
    const bad = collectionBody.safeParse({ ...collection, reviewShare: 2 });
    expect(bad.success ? [] : fieldErrors(bad.error)).toEqual([{ field: "reviewShare", reason: "must be at most 1" }]);
  });

  it("name their rule: the share alone, or the share or the threshold", () => {
    expect(reviewRuleOf(null)).toBe("share");
    expect(reviewRuleOf(0.4)).toBe("share-or-threshold");
  });
});

describe("the review rule a result is read with", () => {
  // ten answers, each judged once against the next: scores from 1 to 10, the same noise for all
  const ids = Array.from({ length: 10 }, (_, i) => `s${i}`);
  const call = (a: string, b: string, x: number, y: number) => ({ order: [a, b], scores: [x, y], expected: null, raw: "" });
  const matches = ids.slice(0, -1).map((a, i): MatchView => {
    const b = ids[i + 1];
    const [x, y] = [i + 1, i + 2];
    return { round: 1, a, b, scoreA: x, scoreB: y, winner: b, calls: [call(a, b, x, y), call(b, a, y, x)] } as unknown as MatchView;
  });
  const views = ids.map((id, i) => ({ id, score: null, scores: [], rank: i + 1, eliminatedInRound: null }) as unknown as AnswerView);
  const settings = { maxScore: 10, template: "exam" as const, gradeBoundaries: [] };

  it("flags ceil(share x answers) by the share, and says so", () => {
    for (const [share, count] of [
      [0.15, 2],
      [0.3, 3],
      [1, 10],
    ]) {
      const read = withConfidence({ answers: views, matches }, { ...settings, reviewShare: share });
      expect(read.review).toEqual({ rule: "share", share, threshold: null, flagged: count });
      expect(read.answers.filter((a) => a.review?.flagged)).toHaveLength(count);
    }
  });

  it("adds every answer above the threshold, and reads an evaluation stored before the fields at 0.15", () => {
    const byShare = withConfidence({ answers: views, matches }, settings);
    expect(byShare.review).toEqual({ rule: "share", share: 0.15, threshold: null, flagged: 2 });
    const probabilities = byShare.answers.map((a) => a.review!.probability).sort((x, y) => y - x);
    // between the 4th and 5th most likely wrong: those four are flagged, whatever the share
    const threshold = (probabilities[3] + probabilities[4]) / 2;
    expect(probabilities[3]).toBeGreaterThan(probabilities[4]);
    const both = withConfidence({ answers: views, matches }, { ...settings, reviewShare: 0.1, reviewThreshold: threshold });
    expect(both.review).toEqual({ rule: "share-or-threshold", share: 0.1, threshold, flagged: 4 });
  });
});
