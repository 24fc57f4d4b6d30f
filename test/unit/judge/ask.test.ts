import { describe, expect, it } from "vitest";
import { estimateTokens, judgeRequest, promptShape, promptTokenSplit } from "../../../src/judge/ask";
import { sharedPrefix } from "../../../src/judge/prompts";
import type { EvaluationInput } from "../../../src/model/evaluation";

const input: EvaluationInput = {
  id: "ev_1",
  tenant: "t",
  question: "What is a stack?",
  reference: "A LIFO list.",
  maxScore: 10,
  template: "exam",
  method: "knockout",
  debias: true,
  seed: 1,
  pairing: "bracket",
  judge: { model: null, temperature: 0.1, structuredOutputs: false, scoreFrom: "text" },
  answers: [
    { id: "a", text: "Last in, first out." },
    { id: "b", text: "A pile of plates where you take the top one first, and only the top one." },
  ],
  rubric: null,
  createdAt: 0,
};
const pair = { match: 0, call: 0, round: 1, order: ["a", "b"] };

describe("prompt tokens and the shared prefix", () => {
  it("measures the prompt and the prefix every pairwise call of the question starts with", () => {
    const shape = promptShape(input, pair);
    const prompt = judgeRequest(input, pair).messages[0].content;
    expect(shape.promptChars).toBe(prompt.length);
    expect(shape.prefixChars).toBe(
      sharedPrefix({ template: "exam", question: input.question, reference: "A LIFO list.", maxScore: 10 }).length,
    );
    expect(prompt.startsWith(judgeRequest(input, { ...pair, order: ["b", "a"] }).messages[0].content.slice(0, shape.prefixChars))).toBe(
      true,
    );
  });

  it("splits the judge's count in proportion, and estimates from characters when the judge gives none", () => {
    expect(promptTokenSplit(200, { prefixChars: 300, promptChars: 400 })).toEqual({ promptTokens: 200, sharedPrefixTokens: 150 });
    expect(promptTokenSplit(0, { prefixChars: 300, promptChars: 401 })).toEqual({
      promptTokens: 101,
      sharedPrefixTokens: Math.round((101 * 300) / 401),
    });
    expect(estimateTokens(0)).toBe(0);
    expect(promptTokenSplit(0, { prefixChars: 0, promptChars: 0 })).toEqual({ promptTokens: 0, sharedPrefixTokens: 0 });
  });
});
