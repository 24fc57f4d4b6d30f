import type { EvaluationInput } from "../../src/model/evaluation";

/** An evaluation's input as the service stores it: a knockout of three answers, with `overrides` on top. */
export function anInput(overrides: Partial<EvaluationInput> = {}): EvaluationInput {
  return {
    id: "ev_1",
    tenant: "t",
    question: "q",
    reference: null,
    maxScore: 10,
    template: "exam",
    method: "knockout",
    debias: true,
    pairing: "bracket",
    seed: 1,
    judge: { model: null, temperature: 0.1, structuredOutputs: false, scoreFrom: "text" },
    answers: [
      { id: "a", text: "x", examinee: "m1" },
      { id: "b", text: "y" },
      { id: "c", text: "z" },
    ],
    rubric: null,
    createdAt: 0,
    ...overrides,
  };
}
