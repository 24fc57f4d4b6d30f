import { describe, expect, it } from "vitest";
import { agreement } from "../../src/metrics/agreement";
import { REACH_SHARE } from "../../src/teacher/calibration";
import { newKey, postEvaluation, request, uniqueTag, until, waitUntilDone, releaseJudge } from "./helpers";

interface Answer {
  id: string;
  score: number;
  teacherScore: number | null;
  calibrated: number | null;
  review: null | { reasons: string[] };
}

const gradePath = (id: string, answerId: string) => `/v1/evaluations/${id}/answers/${encodeURIComponent(answerId)}/grade`;

async function completed(key: string, qualities: number[], extra: Record<string, unknown> = {}) {
  const id = await postEvaluation(key, {
    question: "Explain a stack.",
    maxScore: 10,
    judge: { scoreFrom: "text" },
    answers: qualities.map((q, i) => ({ id: `a${i + 1}`, text: `q=${q} LIFO` })),
    ...extra,
  });
  const result = await waitUntilDone(id, key);
  expect(result.status).toBe("completed");
  return id;
}

async function read(key: string, id: string) {
  const r = await request("GET", `/v1/evaluations/${id}`, { key });
  expect(r.status).toBe(200);
  return r.json as {
    answers: Answer[];
    agreement: null | Record<string, number | null>;
    calibration: null | { n: number; range: [number, number] };
  };
}

describe("teacher grades: PUT, DELETE and the history of an answer's grade", () => {
  it("sets, changes and withdraws a grade; every change is kept; the judge's scores stay as they were", async () => {
    const key = await newKey("teacher-grades");
    const id = await completed(key, [2, 4, 6, 8]);
    const before = await read(key, id);
    for (const a of before.answers) expect(a.teacherScore).toBeNull();
    expect(before.agreement).toBeNull();
    expect(before.calibration).toBeNull();

    const set = await request("PUT", gradePath(id, "a2"), { key, body: { score: 4.5, note: "clear, but no example" } });
    expect(set.status).toBe(200);
    expect(set.json).toEqual({ answerId: "a2", teacherScore: 4.5, note: "clear, but no example", gradedAt: expect.any(String) });
    expect(Number.isNaN(Date.parse(set.json.gradedAt))).toBe(false);
    const changed = await request("PUT", gradePath(id, "a2"), { key, body: { score: 5 } });
    expect(changed.json).toMatchObject({ teacherScore: 5, note: null });

    const after = await read(key, id);
    const a2 = after.answers.find((a) => a.id === "a2")!;
    expect(a2.teacherScore).toBe(5);
    // the judge's record is the same
    expect(after.answers.map((a) => a.score)).toEqual(before.answers.map((a) => a.score));

    const withdrawn = await request("DELETE", gradePath(id, "a2"), { key });
    expect(withdrawn.status).toBe(200);
    expect(withdrawn.json).toMatchObject({ answerId: "a2", teacherScore: null });
    expect((await read(key, id)).answers.find((a) => a.id === "a2")!.teacherScore).toBeNull();
    // nothing left to withdraw
    expect((await request("DELETE", gradePath(id, "a2"), { key })).status).toBe(404);

    const history = await request("GET", `${gradePath(id, "a2")}/history`, { key });
    expect(history.status).toBe(200);
    expect(
      history.json.data.map((h: { action: string; teacherScore: number | null; note: string | null }) => [
        h.action,
        h.teacherScore,
        h.note,
      ]),
    ).toEqual([
      ["graded", 4.5, "clear, but no example"],
      ["graded", 5, null],
      ["withdrawn", null, null],
    ]);
  });

  it("refuses scores off the scale (400 naming score), unknown answers (404), and grades before completion (409)", async () => {
    const key = await newKey("teacher-refusals");
    const id = await completed(key, [2, 4]);
    for (const body of [{ score: -0.5 }, { score: 10.5 }, { score: "7" }, { score: 3, extra: 1 }]) {
      const r = await request("PUT", gradePath(id, "a1"), { key, body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.headers.get("content-type")).toMatch(/problem\+json/);
    }
    const off = await request("PUT", gradePath(id, "a1"), { key, body: { score: 11 } });
    expect(off.json.errors).toEqual([{ field: "score", reason: expect.stringMatching(/from 0 to .*10/) }]);
    expect((await request("PUT", gradePath(id, "nobody"), { key, body: { score: 3 } })).status).toBe(404);
    expect((await request("GET", `${gradePath(id, "a1")}/history`, { key })).json.data).toEqual([]);

    const tag = uniqueTag("grade-running");
    const running = await postEvaluation(key, {
      question: `Q [tag:${tag}] [hold-after:0]`,
      answers: [
        { id: "x", text: "q=2" },
        { id: "y", text: "q=5" },
      ],
    });
    await until("running", async () => (await request("GET", `/v1/evaluations/${running}`, { key })).json.status === "running");
    const early = await request("PUT", gradePath(running, "x"), { key, body: { score: 3 } });
    expect(early.status).toBe(409);
    // cancelled first: its held calls are abandoned, so the judge letting them go breaks nothing
    await request("DELETE", `/v1/evaluations/${running}`, { key });
    await releaseJudge(tag);
  });

  it("is the owner's alone: another tenant gets 404 on every grade route, without a key 401", async () => {
    const owner = await newKey("teacher-owner");
    const other = await newKey("teacher-other");
    const id = await completed(owner, [3, 7]);
    await request("PUT", gradePath(id, "a1"), { key: owner, body: { score: 3 } });
    for (const [method, path, body] of [
      ["PUT", gradePath(id, "a1"), { score: 9 }],
      ["DELETE", gradePath(id, "a1"), undefined],
      ["GET", `${gradePath(id, "a1")}/history`, undefined],
    ] as const) {
      expect((await request(method, path, { key: other, body })).status).toBe(404);
      expect((await request(method, path, { body })).status).toBe(401);
    }
    expect((await read(owner, id)).answers.find((a) => a.id === "a1")!.teacherScore).toBe(3);
  });

  it("finds an answer by its id in any Unicode normal form", async () => {
    const key = await newKey("teacher-nfc");
    const id = await postEvaluation(key, {
      question: "Q",
      answers: [
        { id: "José", text: "q=3" },
        { id: "Zoë", text: "q=6" },
      ],
    });
    await waitUntilDone(id, key);
    const r = await request("PUT", gradePath(id, "Jose\u0301"), { key, body: { score: 2 } });
    expect(r.status).toBe(200);
    expect(r.json.answerId).toBe("José");
    // an id with the URL's own characters, sent encoded
    const odd = await postEvaluation(key, {
      question: "Q",
      answers: [
        { id: "a/b?c#d %2F", text: "q=3" },
        { id: "plain", text: "q=6" },
      ],
    });
    await waitUntilDone(odd, key);
    const graded = await request("PUT", gradePath(odd, "a/b?c#d %2F"), { key, body: { score: 4 } });
    expect(graded.status).toBe(200);
    expect(graded.json.answerId).toBe("a/b?c#d %2F");
    expect((await request("GET", `${gradePath(odd, "a/b?c#d %2F")}/history`, { key })).json.data).toHaveLength(1);
  });
});

describe("agreement and calibration in the result", () => {
  it("agreement over the graded answers, and a mean-shift calibration from three grades with outside-calibration flagged", async () => {
    const key = await newKey("teacher-agree");
    const id = await completed(key, [2, 4, 6, 8]);
    const judged = await read(key, id);
    const score = new Map(judged.answers.map((a) => [a.id, a.score]));
    // the teacher grades the upper three half a point above the judge
    for (const answerId of ["a2", "a3", "a4"]) {
      const r = await request("PUT", gradePath(id, answerId), { key, body: { score: score.get(answerId)! + 0.5 } });
      expect(r.status).toBe(200);
    }
    const result = await read(key, id);
    // by hand: equal differences, so the correlations are 1 and the mean absolute error 0.5; every
    // grade is one half-point step above the judge's, so none is exact
    expect(result.agreement).toMatchObject({ n: 3, pearson: expect.closeTo(1, 12), spearman: 1, mae: 0.5, exact: 0 });
    const pairs = ["a2", "a3", "a4"].map((a) => ({ judge: score.get(a)!, teacher: score.get(a)! + 0.5 }));
    expect(result.agreement!.qwk).toBeCloseTo(agreement(pairs, { maxScore: 10, step: 0.5 })!.qwk!, 12);

    const low = [...score.entries()].sort((x, y) => x[1] - y[1]);
    // three grades: a mean shift (issue 26), half a point up at the graded answers, faded away from them
    const reach = REACH_SHARE * 10;
    expect(result.calibration).toEqual({
      n: 3,
      method: "shift",
      range: [score.get("a2"), score.get("a4")],
      scope: "evaluation",
      intercept: expect.closeTo(0.5, 12),
      slope: 1,
      reach,
    });
    for (const a of result.answers) {
      if (a.id === "a1") {
        // below every graded answer: shifted by less the further it lies, and flagged as outside what the grades span
        const distance = score.get("a2")! - score.get("a1")!;
        expect(distance).toBeGreaterThan(0);
        expect(a.calibrated).toBeCloseTo(score.get("a1")! + 0.5 * Math.exp(-((distance / reach) ** 2)), 12);
        expect(a.review?.reasons).toContain("outside-calibration");
      } else {
        expect(a.calibrated).toBeCloseTo(a.score + 0.5, 12);
        expect(a.review?.reasons ?? []).not.toContain("outside-calibration");
      }
    }
    expect(low[0][0]).toBe("a1");
  });

  it("a batch carries the agreement over all its questions, and fits the calibration on their pool", async () => {
    const key = await newKey("teacher-batch");
    const created = await request("POST", "/v1/batches", {
      key,
      body: {
        defaults: { maxScore: 10, judge: { scoreFrom: "text" } },
        items: [1, 2].map((k) => ({
          question: `Question ${k}`,
          answers: [2, 5, 8].map((q, i) => ({ id: `s${i}`, text: `q=${q + k} LIFO` })),
        })),
      },
    });
    expect(created.status).toBe(202);
    const batchId = created.json.id;
    const batch = await until("batch done", async () => {
      const r = await request("GET", `/v1/batches/${batchId}`, { key });
      return r.json.status === "completed" ? r.json : null;
    });
    expect(batch.agreement).toBeNull();
    const [first, second] = batch.evaluations as string[];
    await request("PUT", gradePath(first, "s0"), { key, body: { score: 3 } });
    await request("PUT", gradePath(first, "s2"), { key, body: { score: 9 } });
    await request("PUT", gradePath(second, "s1"), { key, body: { score: 7 } });
    const graded = (await request("GET", `/v1/batches/${batchId}`, { key })).json;
    expect(graded.agreement).toMatchObject({ n: 3, scale: "points" });
    // two grades in the first question, one in the second: only the batch's pool has three
    const one = await read(key, first);
    expect(one.agreement!.n).toBe(2);
    expect(one.calibration).toMatchObject({ n: 3, scope: "batch" });
    expect(one.answers.every((a) => a.calibrated !== null)).toBe(true);
  });

  it("a batch on two scales (5 and 10 points) answers its agreement in shares, qwk null", async () => {
    const key = await newKey("teacher-batch-scales");
    const created = await request("POST", "/v1/batches", {
      key,
      body: {
        defaults: { judge: { scoreFrom: "text" } },
        items: [5, 10].map((maxScore) => ({
          question: `Question out of ${maxScore}`,
          maxScore,
          answers: [2, 5, 8].map((q, i) => ({ id: `s${i}`, text: `q=${q} LIFO` })),
        })),
      },
    });
    expect(created.status).toBe(202);
    const batchId = created.json.id;
    const batch = await until("batch done", async () => {
      const r = await request("GET", `/v1/batches/${batchId}`, { key });
      return r.json.status === "completed" ? r.json : null;
    });
    const [five, ten] = batch.evaluations as string[];
    // the shares' grid was a 1e-9 step: a kappa table of 10^9 levels, 500 after ~20 s
    for (const [id, answerId, score] of [
      [five, "s0", 1],
      [five, "s2", 4.5],
      [ten, "s1", 6],
      [ten, "s2", 9],
    ] as const)
      expect((await request("PUT", gradePath(id, answerId), { key, body: { score } })).status).toBe(200);
    const graded = await request("GET", `/v1/batches/${batchId}`, { key });
    expect(graded.status).toBe(200);
    expect(graded.json.agreement).toMatchObject({ n: 4, scale: "share", qwk: null });
    expect(graded.json.agreement.mae).toBeLessThanOrEqual(1);
  });
});
