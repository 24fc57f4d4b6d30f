import { describe, expect, it } from "vitest";
import { METHODS, type MethodName } from "../../src/core/methods";
import { answers, judgeLog, newKey, request, uniqueTag, waitUntilDone } from "./helpers";

const BIAS = 0.5; // the test judge's bonus for the answer it sees first (and for a lone answer)
const qualities = [2, 7, 4, 9, 1, 5, 3];
const list = answers(qualities);
const q = new Map(list.map((a, i) => [a.id, qualities[i]]));

async function grade(body: Record<string, unknown>) {
  const key = await newKey("methods");
  const created = await request("POST", "/v1/evaluations", { key, body });
  expect(created.status, JSON.stringify(created.json)).toBe(202);
  const live = await waitUntilDone(created.json.id, key);
  // once the object says it is done, D1 has the same outcome
  const stored = await request("GET", `/v1/evaluations/${created.json.id}`, { key });
  return { key, live, result: stored.json };
}

describe("every method against a real judge server: usage.judgeCalls is the method's exact count", () => {
  for (const method of ["individual", "pairwise", "round-robin", "knockout"] as MethodName[]) {
    for (const debias of [false, true]) {
      it(`${method} (debias=${debias})`, async () => {
        const tag = uniqueTag(`${method}-${debias}`);
        const { live, result } = await grade({
          question: `Explain a stack. [tag:${tag}]`,
          answers: list,
          method,
          debias,
          seed: 5,
          maxScore: 10,
        });
        expect(result.status).toBe("completed");
        expect(result.method).toBe(method);
        const count = METHODS[method].callCount(7, { debias });
        expect(result.usage.judgeCalls).toBe(count);
        expect(await judgeLog(tag)).toHaveLength(count);
        expect(result.matches.reduce((s: number, m: { calls: unknown[] }) => s + m.calls.length, 0)).toBe(count);
        expect(result.answers).toHaveLength(7);
        for (const a of result.answers) expect(a.score).not.toBeNull();
        expect({ ...live, status: undefined, completedAt: undefined }).toEqual({ ...result, status: undefined, completedAt: undefined });
      });
    }
  }

  it("individual: one pointwise prompt per answer, b = null, score = the judge's score", async () => {
    const tag = uniqueTag("individual");
    const { result } = await grade({ question: `Explain a stack. [tag:${tag}]`, answers: list, method: "individual" });
    for (const m of result.matches) {
      expect(m.b).toBeNull();
      expect(m.scoreB).toBeNull();
      expect(m.calls).toHaveLength(1);
      expect(m.calls[0].order).toEqual([m.a]);
      expect(m.calls[0].raw).toMatch(/Score: /);
      expect(m.scoreA).toBe(q.get(m.a)! + BIAS);
    }
    for (const a of result.answers) expect(a.score).toBe(q.get(a.id)! + BIAS);
    expect(result.champion).toBe("s4");
    for (const e of await judgeLog(tag)) {
      expect(e.qualities).toHaveLength(1);
      expect(e.prompt).toMatch(/The Answer:/);
    }
  });

  it("round-robin: every pair once in both orders, and a Bradley-Terry strength per answer", async () => {
    const tag = uniqueTag("rr");
    const { result } = await grade({ question: `Explain a stack. [tag:${tag}]`, answers: list, method: "round-robin", debias: true });
    expect(result.matches).toHaveLength(21);
    expect(new Set(result.matches.map((m: { a: string; b: string }) => [m.a, m.b].sort().join())).size).toBe(21);
    const byStrength = [...result.answers].sort((x, y) => y.strength - x.strength).map((a) => q.get(a.id));
    expect(byStrength).toEqual([...qualities].sort((x, y) => y - x));
    expect(result.champion).toBe("s4");
  });

  it("pairwise: an odd answer out plays one extra match, so every answer has a score", async () => {
    const { result } = await grade({ question: `Q [tag:${uniqueTag("pw")}]`, answers: list, method: "pairwise", debias: false });
    expect(result.matches).toHaveLength(4);
    const plays = result.matches.flatMap((m: { a: string; b: string }) => [m.a, m.b]);
    expect(new Set(plays).size).toBe(7);
  });
});

describe("rubric judging (method individual)", () => {
  const rubric = { criteria: [{ name: "accuracy", description: "facts are right", maxScore: 5 }, { name: "clarity" }] };

  it("asks for structured output and reports each criterion's score per answer", async () => {
    const tag = uniqueTag("rubric");
    const { result } = await grade({ question: `Explain a stack. [tag:${tag}]`, answers: list, method: "individual", rubric });
    expect(result.status).toBe("completed");
    expect(result.usage.judgeCalls).toBe(7);
    expect(result.rubric).toEqual({
      criteria: [
        { name: "accuracy", description: "facts are right", maxScore: 5 },
        { name: "clarity", maxScore: 10 },
      ],
    });
    for (const a of result.answers) {
      const quality = q.get(a.id)! + BIAS;
      expect(a.score).toBe(quality);
      expect(a.criteria).toEqual({ accuracy: Math.min(5, quality), clarity: quality });
    }
    const log = await judgeLog(tag);
    expect(log.every((e) => e.structured)).toBe(true);
    expect(log[0].prompt).toMatch(/- accuracy \(0 to 5\): facts are right\n- clarity \(0 to 10\)/);
  });

  it("is refused with any other method, and criteria must be distinct", async () => {
    const key = await newKey("methods");
    const wrong = await request("POST", "/v1/evaluations", { key, body: { question: "Q", answers: list, method: "knockout", rubric } });
    expect(wrong.status).toBe(400);
    expect(wrong.json.errors).toEqual([{ field: "rubric", reason: expect.stringMatching(/method "individual"/) }]);
    const dup = await request("POST", "/v1/evaluations", {
      key,
      body: { question: "Q", answers: list, method: "individual", rubric: { criteria: [{ name: "A b" }, { name: "a_b" }] } },
    });
    expect(dup.status).toBe(400);
    expect(dup.json.errors[0].field).toBe("rubric.criteria[1].name");
  });
});

describe("calls open at once", () => {
  it("an evaluation never has more than JUDGE_MAX_IN_FLIGHT (4 in tests) calls open, and uses all of them", async () => {
    const tag = uniqueTag("cap");
    const { result } = await grade({
      question: `Q [tag:${tag}] [delay:15]`,
      answers: answers([1, 2, 3, 4, 5, 6, 7, 8]),
      method: "round-robin",
      debias: true,
    });
    expect(result.usage.judgeCalls).toBe(56);
    const open = (await judgeLog(tag)).map((e) => e.open);
    expect(Math.max(...open)).toBe(4);
  });
});

describe("limits", () => {
  it("round-robin takes at most 64 answers; knockout takes more", async () => {
    const key = await newKey("methods");
    const many = answers(Array.from({ length: 65 }, (_, i) => i % 10));
    const r = await request("POST", "/v1/evaluations", { key, body: { question: "Q", answers: many, method: "round-robin" } });
    expect(r.status).toBe(400);
    expect(r.json.errors).toEqual([{ field: "answers", reason: expect.stringMatching(/at most 64 answers/) }]);
    const unknown = await request("POST", "/v1/evaluations", { key, body: { question: "Q", answers: list, method: "swiss" } });
    expect(unknown.status).toBe(400);
    expect(unknown.json.errors[0].field).toBe("method");
  });
});
