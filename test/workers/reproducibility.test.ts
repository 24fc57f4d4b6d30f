import { describe, expect, it } from "vitest";
import { differingMatches } from "../../src/core/rerun";
import { callSeed, feedbackSeed, SEED_POLICY } from "../../src/judge/call-seed";
import { promptVersion } from "../../src/judge/prompt-version";
import { defaults } from "../../src/platform/config";
import { answers, gateIdle, judgeLog, newKey, postEvaluation, request, uniqueTag, waitUntilDone } from "./helpers";

// Issue 30 item 5: every judge call sends a seed derived from the evaluation's seed and the call's
// place; the result records the model, its revision, the sampling parameters and the prompts' version;
// POST …/rerun replays an evaluation and reports how many matches came out differently. The test judge
// is deterministic unless `[seed-noise:N]` makes its scores depend on the request's seed.

type Call = { order: string[]; scores: number[]; seed?: number; model?: string; revision?: string };
type Match = { a: string; b: string | null; calls: Call[] };

const question = (tag: string, extra = "") => `What is a stack? [tag:${tag}]${extra}`;

describe("the seed every call sends, and what the result records", () => {
  it("sends each call the seed of its place, and records it with the model and its revision", async () => {
    const key = await newKey("repro-record");
    const tag = uniqueTag("repro-record");
    const id = await postEvaluation(key, {
      question: question(tag, " [fingerprint:fp-rev-7]"),
      maxScore: 10,
      seed: 11,
      debias: true,
      answers: answers([8, 6, 4, 2], "r"),
    });
    const result = await waitUntilDone(id, key);
    expect(result.status).toBe("completed");
    const matches: Match[] = result.matches;
    const recorded = matches.flatMap((m, match) => m.calls.map((c, call) => ({ ...c, place: [match, call] })));
    expect(recorded.length).toBeGreaterThan(0);
    for (const c of recorded) {
      expect(c.seed).toBe(callSeed(11, c.place[0], c.place[1], 1));
      expect(c.model).toBe("test-judge");
      expect(c.revision).toBe("fp-rev-7");
    }
    // the judge was asked exactly the seeds recorded, with the max_tokens recorded
    const log = await judgeLog(tag);
    expect(log.map((e) => e.seed).sort()).toEqual(recorded.map((c) => c.seed).sort());
    const maxTokens = result.reproducibility.sampling.maxTokens;
    expect(maxTokens).toBe(defaults.maxTokens);
    expect(new Set(log.map((e) => e.maxTokens))).toEqual(new Set([maxTokens]));
    expect(result.reproducibility).toEqual({
      seed: 11,
      seedPolicy: SEED_POLICY,
      sampling: { temperature: log[0].temperature, topP: null, maxTokens },
      promptVersion: promptVersion("exam"),
      models: ["test-judge"],
      revisions: ["fp-rev-7"],
    });
  });

  it("asks a reply that could not be parsed again under the next seed", async () => {
    const key = await newKey("repro-parse");
    const tag = uniqueTag("repro-parse");
    const id = await postEvaluation(key, {
      question: question(tag, " [parse-once]"),
      maxScore: 10,
      seed: 23,
      method: "individual",
      answers: answers([7, 3], "p"),
    });
    const result = await waitUntilDone(id, key);
    expect(result.status).toBe("completed");
    const log = await judgeLog(tag);
    for (const [match, m] of (result.matches as Match[]).entries()) {
      const asked = log.filter((e) => e.prompt.includes(`Answer by ${m.a}:`)).map((e) => e.seed);
      expect(asked).toEqual([callSeed(23, match, 0, 1), callSeed(23, match, 0, 2)]);
      expect(m.calls[0].seed).toBe(callSeed(23, match, 0, 2));
    }
  });
});

describe("the feedback calls' seeds", () => {
  it("sends each answer's feedback call the seed of its answer's place", async () => {
    const key = await newKey("repro-feedback");
    const tag = uniqueTag("repro-feedback");
    const posted = answers([7, 5, 3], "f");
    const id = await postEvaluation(key, { question: question(tag), maxScore: 10, seed: 41, feedback: "judge", answers: posted });
    const result = await waitUntilDone(id, key);
    expect(result.status).toBe("completed");
    const asked = (await judgeLog(tag)).filter((e) => e.feedback);
    expect(asked.length).toBe(posted.length);
    for (const [position, answer] of posted.entries())
      expect(asked.find((e) => e.prompt.includes(answer.text))?.seed).toBe(feedbackSeed(41, position, 1));
  });
});

describe("POST /v1/evaluations/:id/rerun", () => {
  it("replays an evaluation with its settings and answers: on a deterministic judge, nothing differs", async () => {
    const key = await newKey("repro-rerun");
    const tag = uniqueTag("repro-rerun");
    const body = {
      question: question(tag),
      maxScore: 10,
      seed: 31,
      debias: "adaptive",
      extraCalls: 2,
      answers: answers([9, 7, 7, 5, 3], "k"),
      metadata: { course: "cs1" },
    };
    const first = await postEvaluation(key, body);
    const original = await waitUntilDone(first, key);
    const r = await request("POST", `/v1/evaluations/${first}/rerun`, { key });
    expect(r.status).toBe(202);
    expect(r.json).toEqual({ id: expect.stringMatching(/^ev_/), status: "queued", rerunOf: first });
    expect(r.json.id).not.toBe(first);
    const again = await waitUntilDone(r.json.id, key);
    expect(again.status).toBe("completed");
    expect(again.metadata).toEqual({ course: "cs1", rerunOf: first });
    expect(again.rerun).toEqual({ of: first, matches: original.matches.length, differing: 0 });
    for (const field of ["seed", "method", "debias", "extraCalls", "maxScore", "template", "question", "reproducibility"])
      expect(again[field], field).toEqual(original[field]);
    expect(again.answers.map((a: { id: string }) => a.id).sort()).toEqual(original.answers.map((a: { id: string }) => a.id).sort());
    // the rerun asked every seed the original asked, each once more
    const seeds = (await judgeLog(tag)).map((e) => e.seed!);
    const counts = new Map<number, number>();
    for (const s of seeds) counts.set(s, (counts.get(s) ?? 0) + 1);
    expect([...counts.values()].every((n) => n === 2)).toBe(true);
    // the original says nothing of reruns
    expect(original.rerun).toBeUndefined();
  });

  it("with a judge whose replies depend on the seed: a rerun does not differ, another seed does", async () => {
    const key = await newKey("repro-noise");
    const tag = uniqueTag("repro-noise");
    const body = (seed: number) => ({
      question: question(tag, " [seed-noise:2]"),
      maxScore: 10,
      seed,
      method: "individual",
      answers: answers([8, 7, 6, 5, 4, 3], "n"),
    });
    const [five, six] = [await postEvaluation(key, body(5)), await postEvaluation(key, body(6))];
    const [a, b] = [await waitUntilDone(five, key), await waitUntilDone(six, key)];
    // individual judging has no bracket: only the judge's sampling seed can make them differ
    expect(differingMatches(a, b).differing).toBeGreaterThan(0);
    const r = await request("POST", `/v1/evaluations/${five}/rerun`, { key });
    expect(r.status).toBe(202);
    const again = await waitUntilDone(r.json.id, key);
    expect(again.rerun).toEqual({ of: five, matches: 6, differing: 0 });
  });

  it("says the report is pending until both have completed", async () => {
    const key = await newKey("repro-pending");
    const tag = uniqueTag("repro-pending");
    const first = await postEvaluation(key, { question: question(tag, " [delay:300]"), maxScore: 10, answers: answers([6, 4], "w") });
    const r = await request("POST", `/v1/evaluations/${first}/rerun`, { key });
    expect(r.status).toBe(202);
    const read = await request("GET", `/v1/evaluations/${r.json.id}`, { key });
    expect(read.json.rerun).toEqual({ of: first, matches: null, differing: null });
    await waitUntilDone(first, key);
    await waitUntilDone(r.json.id, key);
  });

  it("refuses another tenant's evaluation, a read-only key and an unknown id, and writes nothing", async () => {
    const key = await newKey("repro-refuse");
    const tag = uniqueTag("repro-refuse");
    const id = await postEvaluation(key, { question: question(tag), maxScore: 10, answers: answers([6, 4], "x") });
    await waitUntilDone(id, key);
    const before = (await request("GET", "/v1/evaluations?limit=100", { key })).json.data.length;
    const other = await newKey("repro-refuse-other");
    const unknown = await request("POST", "/v1/evaluations/ev_00000000000000000000000000000000/rerun", { key });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get("content-type")).toMatch(/problem\+json/);
    expect((await request("POST", `/v1/evaluations/${id}/rerun`, { key: other })).status).toBe(404);
    const reader = await newKey("repro-refuse", ["read"]);
    expect((await request("POST", `/v1/evaluations/${id}/rerun`, { key: reader })).status).toBe(403);
    expect((await request("GET", "/v1/evaluations?limit=100", { key })).json.data.length).toBe(before);
    await gateIdle();
  });
});
