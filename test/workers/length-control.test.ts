import { describe, expect, it } from "vitest";
import { lengthControlledScores } from "../../src/core/length-control";
import { gateIdle, newKey, postEvaluation, request, uniqueTag, waitUntilDone } from "./helpers";

// The test judge scores by q alone (plus 0.5 for the answer shown first): here the better answers are
// the longer ones, so a fit on these matches finds the longer answer preferred, and takes it out.

/** Six answers whose quality rises with their length. */
function longerIsBetter(prefix: string) {
  return [2, 3, 4, 5, 6, 8].map((q, i) => ({ id: `${prefix}${i + 1}`, text: `q=${q} LIFO.${" lorem".repeat(5 * 2 ** i)}` }));
}

interface Answer {
  id: string;
  score: number;
  rawScore?: number;
  controlledScore?: number;
  text: string;
}

describe("lengthControl", () => {
  it("is refused for pointwise judging, naming the field, and nothing is created", async () => {
    const key = await newKey("lc-refused");
    const r = await request("POST", "/v1/evaluations", {
      key,
      body: { question: "Q", method: "individual", lengthControl: true, answers: longerIsBetter("a") },
    });
    expect(r.status).toBe(400);
    expect(r.headers.get("content-type")).toContain("application/problem+json");
    expect(r.json.errors).toEqual([{ field: "lengthControl", reason: expect.stringContaining('not "individual"') }]);
    const batch = await request("POST", "/v1/batches", {
      key,
      body: { defaults: { lengthControl: true }, items: [{ question: "Q", method: "individual", answers: longerIsBetter("b") }] },
    });
    expect(batch.status).toBe(400);
    expect(batch.json.errors[0].field).toBe("items[0].lengthControl");
    const list = await request("GET", "/v1/evaluations", { key });
    expect(list.json.data).toEqual([]);
  });

  it("carries the fit and each answer's raw and controlled scores, as the recorded matches give them", async () => {
    const key = await newKey("lc");
    const id = await postEvaluation(key, {
      question: `Explain a stack. [tag:${uniqueTag("lc")}]`,
      method: "round-robin",
      maxScore: 10,
      lengthControl: true,
      answers: longerIsBetter("s"),
    });
    const result = await waitUntilDone(id, key);
    expect(result.status).toBe("completed");
    expect(result.lengthControl.fitted).toBe(true);
    // every match went to the longer answer: the fit finds the judge preferring length
    expect(result.lengthControl.coefficient).toBeGreaterThan(0);
    expect(result.lengthControl.points).toBeGreaterThan(0);
    const answers: Answer[] = result.answers;
    for (const a of answers) expect(a.rawScore).toBe(a.score);
    // the same figures from the matches and texts as the API shows them
    const again = lengthControlledScores(
      answers.map((a) => ({ id: a.id, score: a.score, length: Array.from(a.text).length })),
      result.matches.map((m: { a: string; b: string; scoreA: number; scoreB: number }) => ({
        a: m.a,
        b: m.b,
        scoreA: m.scoreA,
        scoreB: m.scoreB,
      })),
      10,
    );
    expect(again.control).toEqual(result.lengthControl);
    for (const a of answers) expect(a.controlledScore).toBeCloseTo(again.scores.get(a.id)!, 12);
    const longest = answers.find((a) => a.id === "s6")!;
    const shortest = answers.find((a) => a.id === "s1")!;
    expect(longest.controlledScore!).toBeLessThan(longest.score);
    expect(shortest.controlledScore!).toBeGreaterThan(shortest.score);
  });

  it("with fewer than 8 decided matches says it could not fit, and the controlled scores are the raw ones", async () => {
    const key = await newKey("lc-few");
    const id = await postEvaluation(key, {
      question: `Explain a stack. [tag:${uniqueTag("lc-few")}]`,
      maxScore: 10,
      lengthControl: true,
      answers: longerIsBetter("k").slice(0, 4),
    });
    const result = await waitUntilDone(id, key);
    expect(result.lengthControl).toEqual({
      coefficient: 0,
      points: 0,
      fitted: false,
      reason: "3 decided matches; the fit needs at least 8",
    });
    for (const a of result.answers as Answer[]) expect(a.controlledScore).toBe(a.score);
  });

  it("adds nothing when not asked for", async () => {
    const key = await newKey("lc-none");
    const id = await postEvaluation(key, {
      question: `Q [tag:${uniqueTag("lc-none")}]`,
      maxScore: 10,
      answers: longerIsBetter("n").slice(0, 3),
    });
    const result = await waitUntilDone(id, key);
    expect(result.lengthControl).toBeUndefined();
    for (const a of result.answers) expect(a).not.toHaveProperty("controlledScore");
    await gateIdle();
  });
});
