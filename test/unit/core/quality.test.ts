import { describe, expect, it } from "vitest";
import {
  qualityBench,
  runQuestion,
  standardMethods,
  type QualityJudge,
  type QualityMethod,
  type QualityQuestion,
} from "../../../src/core/quality";
import { adaptiveMargin } from "../../../src/core/extra";
import { gaussian, seededRandom } from "../../../src/random/seeded";

const question = (id: string, humans: number[]): QualityQuestion => ({
  id,
  maxScore: 5,
  answers: humans.map((human, i) => ({ id: `${id}.${i}`, human })),
});
const humanOf = (q: QualityQuestion, id: string) => q.answers.find((a) => a.id === id)!.human;

/** Writes the human score exactly. */
const exact: QualityJudge = (q, call) => ({ scores: call.order.map((id) => humanOf(q, id)) });

/** Written scores that always tie; what it believed is the human score: only the probabilities tell answers apart. */
const coarse: QualityJudge = (q, call) => ({
  scores: call.order.map(() => 2.5),
  detail: { expected: call.order.map((id) => 2 + humanOf(q, id) / 5) },
});

function noisy(seed: number): QualityJudge {
  const rand = seededRandom(seed).next;
  const g = () => gaussian(rand);
  return (q, call) => {
    const belief = call.order.map((id) => Math.min(5, Math.max(0, humanOf(q, id) + 0.6 * g())));
    return { scores: belief.map((b) => Math.round(b * 2) / 2), detail: { expected: belief, spread: belief.map(() => 0.6) } };
  };
}

const questions = Array.from({ length: 12 }, (_, k) =>
  question(
    `q${k}`,
    Array.from({ length: 16 }, (_, i) => ((i * 7 + k) % 11) / 2),
  ),
);

describe("the quality bench's core", () => {
  it("runs each method's core to the end and counts the judge calls it made", async () => {
    const q = questions[0];
    const n = q.answers.length;
    const m = (over: Partial<QualityMethod>): QualityMethod => ({
      label: "x",
      method: "knockout",
      debias: true,
      scoreFrom: "text",
      ...over,
    });
    expect((await runQuestion(q, m({}), exact, 1)).judgeCalls).toBe(2 * (n - 1));
    expect((await runQuestion(q, m({ debias: false }), exact, 1)).judgeCalls).toBe(n - 1);
    expect((await runQuestion(q, m({ extraCalls: (k) => k }), exact, 1)).judgeCalls).toBe(2 * (n - 1) + n);
    expect((await runQuestion(q, m({ method: "individual", debias: false }), exact, 1)).judgeCalls).toBe(n);
    expect((await runQuestion(q, m({ method: "round-robin" }), exact, 1)).judgeCalls).toBe(n * (n - 1));
    const adaptive = await runQuestion(q, m({ debias: "adaptive", adaptiveMargin }), exact, 1);
    expect(adaptive.judgeCalls + adaptive.callsSaved).toBe(2 * (n - 1));
  });

  it("an exact judge gives every method a Pearson of 1; an async judge works the same", async () => {
    const rows = await qualityBench(questions.slice(0, 3), standardMethods(adaptiveMargin), async (q, call) => exact(q, call));
    for (const r of rows) expect(r.pearson, r.label).toBeCloseTo(1, 12);
    expect(rows.map((r) => r.label)).toContain("knockout (paper: debiased, written scores)");
    expect(rows.find((r) => r.label === "round-robin (debiased, written scores)")!.callsPerAnswer).toBeCloseTo(15, 12); // n(n-1) calls for n answers
  });

  it("reads the judge's probabilities only where the method says so", async () => {
    const methods: QualityMethod[] = [
      { label: "text", method: "knockout", debias: true, scoreFrom: "text" },
      { label: "logprobs", method: "knockout", debias: true, scoreFrom: "logprobs" },
    ];
    const [text, logprobs] = await qualityBench(questions, methods, coarse);
    expect(text.pearson).toBeNull(); // every score 2.5: no correlation is defined
    expect(logprobs.pearson).toBeCloseTo(1, 12);
  });

  it("with a noisy judge, extra calls buy Pearson, and the run repeats exactly for a seed", async () => {
    const methods = standardMethods(adaptiveMargin).filter(
      (m) => m.method === "knockout" && m.scoreFrom === "logprobs" && m.debias === true,
    );
    const rows = await qualityBench(questions, methods, noisy(7));
    const byLabel = new Map(rows.map((r) => [r.label, r]));
    expect(byLabel.get("knockout, logprobs, extra 2N")!.pearson!).toBeGreaterThan(byLabel.get("knockout, logprobs")!.pearson!);
    expect(byLabel.get("knockout, logprobs, extra 2N")!.judgeCalls).toBeGreaterThan(byLabel.get("knockout, logprobs, extra N")!.judgeCalls);
    expect(await qualityBench(questions, methods, noisy(7))).toEqual(rows);
  });
});
