import { describe, expect, it } from "vitest";
// @ts-expect-error the bench is plain JavaScript without types
import { evaluationBody as benchBody } from "../../../bench/lib.mjs";
import { evaluationBody } from "../../../src/contract/evaluation-request";

// A Mohler question as the bench reads it from the data set.
const question = {
  question: "What is a variable?",
  reference: "A named location in memory.",
  max_score: 5,
  answers: [
    { id: "1.1", text: "A place in memory with a name." },
    { id: "1.2", text: "Something that holds a value." },
    { id: "1.3", text: "A box." },
  ],
};

describe("the bench's evaluation bodies", () => {
  it("ask for logprobs on every grading call when the target wants a real judge's calls", () => {
    const body = benchBody(question, { seed: 7, scoreFrom: "logprobs" });
    expect(body.judge).toEqual({ scoreFrom: "logprobs" });
    // the service accepts it as it stands: a bench body the contract refused would measure nothing
    const parsed = evaluationBody.safeParse(body);
    expect(parsed.success).toBe(true);
    expect(parsed.data?.judge?.scoreFrom).toBe("logprobs");
  });

  it("leave the judge's settings to the service otherwise", () => {
    const body = benchBody(question, { maxAnswers: 2 });
    expect(body.judge).toBeUndefined();
    expect(body.answers).toHaveLength(2);
    expect(evaluationBody.safeParse(body).success).toBe(true);
  });
});
