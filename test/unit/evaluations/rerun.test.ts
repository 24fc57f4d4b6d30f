import { describe, expect, it } from "vitest";
import { promptVersion } from "../../../src/judge/prompt-version";
import type { EvaluationInput } from "../../../src/model/evaluation";
import { reproducibilityOf } from "../../../src/evaluations/reproducibility";
import { rerunInput, rerunOf } from "../../../src/evaluations/rerun";
import { SEED_POLICY } from "../../../src/judge/call-seed";

const original: EvaluationInput = {
  id: "ev_old",
  tenant: "t",
  question: "Q?",
  reference: "R.",
  maxScore: 5,
  template: "exam",
  method: "knockout",
  debias: "adaptive",
  pairing: "round",
  seed: 99,
  judge: { model: "m", temperature: 0.3, structuredOutputs: true, scoreFrom: "logprobs", maxTokens: 512 },
  promptVersion: "exam@0",
  extraCalls: 3,
  webhookUrl: "https://hooks.example/x",
  answers: [
    { id: "a", text: "A", examinee: "ann" },
    { id: "b", text: "B" },
  ],
  rubric: null,
  feedback: "judge",
  batchId: "ba_1",
  batchIndex: 2,
  createdAt: 1,
};

describe("rerunInput", () => {
  it("keeps the settings, the seed and the answers; alone, under a new id, with today's prompts", () => {
    const again = rerunInput(original, { id: "ev_new", now: 5, maxTokens: 1024 });
    expect(again).toEqual({
      ...original,
      id: "ev_new",
      createdAt: 5,
      promptVersion: promptVersion("exam", { feedback: true }),
      webhookUrl: null,
      batchId: null,
      batchIndex: null,
    });
  });

  it("gives an original made before max_tokens was kept today's", () => {
    const { maxTokens: _, ...judge } = original.judge;
    expect(rerunInput({ ...original, judge }, { id: "ev_new", now: 5, maxTokens: 1024 }).judge.maxTokens).toBe(1024);
  });
});

describe("rerunOf", () => {
  it("reads the metadata's rerunOf, and nothing from other metadata", () => {
    expect(rerunOf({ metadata: { rerunOf: "ev_x", course: 1 } })).toBe("ev_x");
    expect(rerunOf({ metadata: { rerunOf: 3 } })).toBeNull();
    expect(rerunOf({ metadata: null })).toBeNull();
    expect(rerunOf({ metadata: ["ev_x"] })).toBeNull();
  });
});

describe("reproducibilityOf", () => {
  it("names each model and revision once, in the order they answered; top_p is never sent", () => {
    const call = (model?: string, revision?: string) => ({
      order: [],
      scores: [],
      raw: "",
      expected: null,
      endpoint: null,
      model,
      revision,
    });
    const matches = [{ calls: [call("m1", "r1"), call("m2")] }, { calls: [call("m1", "r1"), call()] }] as never;
    expect(reproducibilityOf({ seed: 4, judgeTemperature: 0.2, judgeMaxTokens: 300, promptVersion: "exam@1" }, { matches })).toEqual({
      seed: 4,
      seedPolicy: SEED_POLICY,
      sampling: { temperature: 0.2, topP: null, maxTokens: 300 },
      promptVersion: "exam@1",
      models: ["m1", "m2"],
      revisions: ["r1"],
    });
  });

  it("says null for what an evaluation made before them did not keep", () => {
    const r = reproducibilityOf({ seed: 4, judgeTemperature: null, judgeMaxTokens: null, promptVersion: null });
    expect(r.sampling.maxTokens).toBeNull();
    expect(r.promptVersion).toBeNull();
    expect(r.models).toEqual([]);
  });
});
