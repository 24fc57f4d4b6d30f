import { inject } from "vitest";
import { describe, expect, it } from "vitest";
import { newKey, postEvaluation, request, uniqueTag, until, waitUntilDone } from "./helpers";

const SITE = "https://course.example";
const releasePath = (id: string) => `/v1/evaluations/${id}/release`;
const hook = (tag: string) => `http://127.0.0.1:${inject("receiverPort")}/hook/${tag}/200`;
const received = async (tag: string): Promise<{ headers: Record<string, string>; body: string }[]> =>
  (await fetch(`http://127.0.0.1:${inject("receiverPort")}/received?tag=${tag}`)).json();

async function completed(key: string, qualities: number[], extra: Record<string, unknown> = {}) {
  const id = await postEvaluation(key, {
    question: `Explain a stack. [tag:${uniqueTag("rel")}]`,
    maxScore: 10,
    judge: { scoreFrom: "text" },
    answers: qualities.map((q, i) => ({ id: `a${i + 1}`, text: `q=${q} LIFO` })),
    ...extra,
  });
  expect((await waitUntilDone(id, key)).status).toBe("completed");
  return id;
}

const read = async (key: string, id: string) => (await request("GET", `/v1/evaluations/${id}`, { key })).json;

describe("the final grade of each answer", () => {
  it("is the judge's score on the grade step, then the teacher's grade, rounded too", async () => {
    const key = await newKey("final-grade");
    const id = await completed(key, [2, 7], { gradeStep: 2 });
    const before = await read(key, id);
    expect(before.gradeStep).toBe(2);
    for (const a of before.answers) {
      expect(a.finalFrom).toBe("judge");
      expect(a.finalScore % 2).toBe(0);
      expect(Math.abs(a.finalScore - a.score)).toBeLessThanOrEqual(1);
      expect(a.releasedAt).toBeNull();
    }
    await request("PUT", `/v1/evaluations/${id}/answers/a1/grade`, { key, body: { score: 4.9 } });
    const a1 = (await read(key, id)).answers.find((a: any) => a.id === "a1");
    expect(a1).toMatchObject({ teacherScore: 4.9, finalScore: 4, finalFrom: "teacher" });
  });

  it("defaults the step by template and refuses steps that cannot round the scale, naming the field", async () => {
    const key = await newKey("grade-step");
    const id = await completed(key, [3, 6]);
    expect((await read(key, id)).gradeStep).toBe(0.5);
    const body = {
      question: "Q",
      answers: [
        { id: "x", text: "1" },
        { id: "y", text: "2" },
      ],
    };
    for (const [gradeStep, reason] of [
      [0, /greater than 0/],
      [11, /at most maxScore \(10\)/],
      [0.001, /at least maxScore \/ 1000/],
    ] as const) {
      const r = await request("POST", "/v1/evaluations", { key, body: { ...body, gradeStep } });
      expect(r.status).toBe(400);
      expect(r.json.errors).toEqual([{ field: "gradeStep", reason: expect.stringMatching(reason) }]);
    }
    const batch = await request("POST", "/v1/batches", { key, body: { defaults: { gradeStep: 20 }, items: [body] } });
    expect(batch.status).toBe(400);
    expect(batch.json.errors[0].field).toBe("items[0].gradeStep");
    const collection = await request("POST", "/v1/collections", { key, body: { question: "Q", gradeStep: -1, allowedOrigins: [SITE] } });
    expect(collection.status).toBe(400);
    expect(collection.json.errors.map((e: any) => e.field)).toEqual(["gradeStep"]);
  });
});

describe("POST and DELETE /v1/evaluations/:id/release", () => {
  it("releases some answers, then all; twice is a no-op that answers the same; withdraws; keeps it in the result", async () => {
    const key = await newKey("release");
    const id = await completed(key, [2, 5, 8]);
    const some = await request("POST", releasePath(id), { key, body: { answers: ["a2"] } });
    expect(some.status).toBe(200);
    expect(some.json).toMatchObject({ id, maxScore: 10, released: 1, of: 3 });
    expect(some.json.answers).toEqual([{ id: "a2", finalScore: expect.any(Number), finalFrom: "judge", releasedAt: expect.any(String) }]);
    const again = await request("POST", releasePath(id), { key, body: { answers: ["a2"] } });
    expect(again.json).toEqual(some.json);

    const view = await read(key, id);
    expect(view.answers.map((a: any) => a.releasedAt !== null)).toEqual([false, true, false]);
    expect(view.answers[1].releasedAt).toBe(some.json.answers[0].releasedAt);

    const all = await request("POST", releasePath(id), { key });
    expect(all.json.released).toBe(3);
    // the answer released first keeps its time
    expect(all.json.answers[1].releasedAt).toBe(some.json.answers[0].releasedAt);

    const withdrawn = await request("DELETE", releasePath(id), { key, body: { answers: ["a1", "a3"] } });
    expect(withdrawn.status).toBe(200);
    expect(withdrawn.json.answers.map((a: any) => a.releasedAt)).toEqual([null, null]);
    expect(withdrawn.json.released).toBe(1);
    expect((await request("DELETE", releasePath(id), { key, body: { answers: ["a1", "a3"] } })).json).toEqual(withdrawn.json);
    expect((await read(key, id)).answers.map((a: any) => a.releasedAt !== null)).toEqual([false, true, false]);
  });

  it("refuses unknown answer ids (400 naming them, nothing released), other tenants (404), unfinished evaluations (409)", async () => {
    const key = await newKey("release-edges");
    const id = await completed(key, [3, 6]);
    const unknown = await request("POST", releasePath(id), { key, body: { answers: ["a1", "nope"] } });
    expect(unknown.status).toBe(400);
    expect(unknown.json.errors).toEqual([{ field: "answers[1]", reason: 'no answer "nope" in this evaluation' }]);
    expect((await read(key, id)).answers.every((a: any) => a.releasedAt === null)).toBe(true);
    const bad = await request("POST", releasePath(id), { key, body: { answers: [] } });
    expect(bad.status).toBe(400);
    expect(bad.json.errors[0].field).toBe("answers");

    const stranger = await newKey("release-stranger");
    expect((await request("POST", releasePath(id), { key: stranger })).status).toBe(404);
    expect((await request("DELETE", releasePath(id), { key: stranger })).status).toBe(404);
    expect((await request("POST", releasePath(id))).status).toBe(401);

    const failing = await postEvaluation(key, {
      question: `Q [fault:400*always] [tag:${uniqueTag("rel-fail")}]`,
      answers: [
        { id: "x", text: "q=1" },
        { id: "y", text: "q=2" },
      ],
    });
    expect((await waitUntilDone(failing, key)).status).toBe("failed");
    const failed = await request("POST", releasePath(failing), { key });
    expect(failed.status).toBe(409);
    expect(failed.json.detail).toMatch(/the evaluation is failed/);

    const slow = await postEvaluation(key, {
      question: `Q [delay:3000] [tag:${uniqueTag("rel-cancel")}]`,
      answers: [
        { id: "x", text: "q=1" },
        { id: "y", text: "q=2" },
      ],
    });
    expect((await request("POST", releasePath(slow), { key })).status).toBe(409);
    expect((await request("DELETE", `/v1/evaluations/${slow}`, { key })).status).toBe(200);
    await until("cancelled", async () => (await read(key, slow)).status === "cancelled");
    const cancelled = await request("DELETE", releasePath(slow), { key });
    expect(cancelled.status).toBe(409);
    expect(cancelled.json.detail).toMatch(/the evaluation is cancelled/);
  });

  it("sends evaluation.released with the released answers' final scores, once per release", async () => {
    const key = await newKey("release-hook");
    const tag = uniqueTag("relhook");
    const id = await completed(key, [2, 8], { webhook: { url: hook(tag) } });
    await until("the completion webhook", async () => (await received(tag)).length === 1);
    const completion = JSON.parse((await received(tag))[0].body);
    expect(completion.data.answers[0]).toMatchObject({ finalScore: expect.any(Number), finalFrom: "judge" });

    await request("PUT", `/v1/evaluations/${id}/answers/a1/grade`, { key, body: { score: 3.2 } });
    await request("POST", releasePath(id), { key, body: { answers: ["a1"] } });
    await request("POST", releasePath(id), { key, body: { answers: ["a1"] } });
    await until("the release webhook", async () => (await received(tag)).length === 2);
    const [, got] = await received(tag);
    const body = JSON.parse(got.body);
    expect(body.type).toBe("evaluation.released");
    expect(body.data).toEqual({
      id,
      status: "completed",
      maxScore: 10,
      answers: [{ id: "a1", finalScore: 3, finalFrom: "teacher", releasedAt: expect.any(String) }],
      releasedAt: body.data.answers[0].releasedAt,
    });
    await request("POST", releasePath(id), { key });
    await until("the second release's webhook", async () => (await received(tag)).length === 3);
    const third = JSON.parse((await received(tag))[2].body);
    expect(third.data.answers.map((a: any) => a.id)).toEqual(["a2"]);
  });
});
