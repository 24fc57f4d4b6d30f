import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { judgeGateStub } from "../../src/platform/stubs";
import { evaluationInserts, insertEvaluation, loadInput } from "../../src/db/evaluations";
import { database } from "../../src/db/database";
import { evaluationBody } from "../../src/contract";
import { evaluationInput } from "../../src/evaluations/input";
import type { EvaluationInput } from "../../src/model/evaluation";
import { tenantLimit } from "../../src/gate/admission";
import { answers, gateIdle, judgeLog, newKey, postEvaluation, releaseJudge, request, uniqueTag, until, waitUntilDone } from "./helpers";

const LIMIT = 4; // JUDGE_MAX_RUNNING in vitest.config.ts
/** The places one tenant may hold: 3 of the 4. */
const SHARE = tenantLimit(LIMIT);
/**
 * How long the judge takes per call for the evaluations that must still run while the rest are
 * posted: long enough that posting them all, one by one on a loaded machine, ends well before the
 * first of them can (each is two rounds of calls).
 */
const SLOW_MS = 400;

const gate = () => judgeGateStub(env);

/**
 * Of tenant `key`'s evaluations `ids` (LIMIT + 2 of them, their judge calls tagged `held` and held
 * open): its share running, the rest queued, and not one call let go.
 */
async function expectShareHeld(key: string, ids: string[], held: string[]): Promise<void> {
  const statuses = await Promise.all(
    ids.map(async (id) => (await request("GET", `/v1/evaluations/${id}?exclude=texts`, { key })).json.status),
  );
  expect(statuses.filter((s) => s === "running")).toHaveLength(SHARE);
  expect(statuses.filter((s) => s === "queued")).toHaveLength(LIMIT + 2 - SHARE);
  expect((await Promise.all(held.map((tag) => judgeLog(tag)))).flat().every((e) => e.outcome === "held")).toBe(true);
}

/** Cancels them and lets their held calls go, so they do not hold the shared test judge. */
async function letGo(key: string, ids: string[], held: string[]): Promise<void> {
  await Promise.all(ids.map((id) => request("DELETE", `/v1/evaluations/${id}`, { key })));
  await Promise.all(held.map((tag) => releaseJudge(tag)));
  await gateIdle();
}

const post = (key: string, tag: string, delay: number, seed = 1) =>
  postEvaluation(key, { question: `Explain queues. [tag:${tag}] [delay:${delay}]`, answers: answers([3, 8, 1, 6], tag), seed });

describe("admission: at most JUDGE_MAX_RUNNING evaluations run at once per judge, the rest wait their turn", () => {
  // these tests count every place at the gate: the files before this one share its runtime (vitest.config.ts,
  // `isolate: false`), and one that left an evaluation ending must have let its place go first
  beforeEach(() => gateIdle(30_000), 40_000);

  it("queues the ones past the tenant's share of the limit and starts each when a running one ends", async () => {
    const key = await newKey("school");
    const group = uniqueTag("adm");
    const tags = Array.from({ length: SHARE + 3 }, (_, i) => `${group}-${i}`);
    const ids: string[] = [];
    for (const [i, tag] of tags.entries()) ids.push(await post(key, tag, SLOW_MS, i + 1));

    // the first SHARE run (one tenant alone); the last 3 wait, and say so
    expect(await gate().admission()).toMatchObject({ limit: LIMIT, running: SHARE, queued: 3 });
    const waiting = await request("GET", `/v1/evaluations/${ids.at(-1)}`, { key });
    expect(waiting.json).toMatchObject({ status: "queued", answers: [], matches: [] });

    const done = await Promise.all(ids.map((id) => waitUntilDone(id, key)));
    expect(done.map((d) => d.status)).toEqual(ids.map(() => "completed"));
    expect(await gate().admission()).toMatchObject({ running: 0, queued: 0 });

    // a queued one's first call came only after some running one had its last call answered
    const logs = await Promise.all(tags.map((t) => judgeLog(t)));
    const firstAsked = logs.map((l) => Math.min(...l.map((e) => e.arrived)));
    const lastAnswered = logs.map((l) => Math.max(...l.map((e) => e.answered ?? Infinity)));
    const earliestEnd = Math.min(...lastAnswered.slice(0, SHARE));
    for (const first of firstAsked.slice(SHARE)) expect(first).toBeGreaterThan(earliestEnd);
    // and the running ones overlapped: they did not wait for each other
    expect(Math.max(...firstAsked.slice(0, SHARE))).toBeLessThan(earliestEnd);
  });

  it("gives the next turn to another tenant before the same tenant's next question", async () => {
    const [a, b] = [await newKey("tenant-a"), await newKey("tenant-b")];
    const group = uniqueTag("turns");
    // two tenants fill every place (a its share), and both have more queued
    const [aIds, bIds]: string[][] = [[], []];
    for (let i = 0; i < SHARE + 2; i++) aIds.push(await post(a, `${group}-a${i}`, SLOW_MS, i + 1));
    for (let i = 0; i < LIMIT - SHARE + 2; i++) bIds.push(await post(b, `${group}-b${i}`, SLOW_MS, i + 1));
    expect(await gate().admission()).toMatchObject({ running: LIMIT, queued: 4 });
    await Promise.all([...aIds.map((id) => waitUntilDone(id, a)), ...bIds.map((id) => waitUntilDone(id, b))]);
    const first = async (tag: string) => Math.min(...(await judgeLog(tag)).map((e) => e.arrived));
    // b posted after a's two queued questions, but b's turn came before a's second
    expect(await first(`${group}-b${LIMIT - SHARE}`)).toBeLessThan(await first(`${group}-a${SHARE + 1}`));
  });

  /**
   * Issue: one tenant could fill every running place (80 evaluations of 256 answers held all 64 for
   * minutes, and another tenant's 2-answer question waited 149 s instead of 0.07 s). Now a tenant holds
   * at most its share (3 of the 4 here), and the place left is another tenant's at once. The flooding
   * tenant's questions hold every judge call they make open until released, so none of them ends, and
   * no place frees, while the other tenant's question runs to the end.
   */
  it("keeps a place for other tenants: one tenant's backlog holds its share, and another tenant's question starts and ends meanwhile", async () => {
    const [flooder, school] = [uniqueTag("flooder"), uniqueTag("school")];
    const [a, b] = [await newKey(flooder), await newKey(school)];
    const group = uniqueTag("share");
    const held = Array.from({ length: LIMIT + 2 }, (_, i) => `${group}-a${i}`);
    const aIds: string[] = [];
    for (const tag of held)
      aIds.push(await postEvaluation(a, { question: `Flood. [tag:${tag}] [hold-after:0]`, answers: answers([3, 8], tag), debias: false }));
    // a alone: its share runs, the rest of its backlog waits though a place is free
    expect(await gate().admission()).toMatchObject({ limit: LIMIT, running: SHARE, queued: LIMIT + 2 - SHARE });

    const bTag = `${group}-b`;
    const bId = await postEvaluation(b, { question: `Explain queues. [tag:${bTag}]`, answers: answers([3, 8], bTag) });
    // started as it was posted: nothing of a's ended, and a's backlog is still queued
    expect(await gate().admission()).toMatchObject({ running: SHARE + 1, queued: LIMIT + 2 - SHARE });
    expect((await waitUntilDone(bId, b)).status).toBe("completed");

    // b's question ran to its end while a held its share with the rest queued, none of a's ended
    await expectShareHeld(a, aIds, held);
    await letGo(a, aIds, held);
  });

  it("counts a tenant's batch questions in its share: another tenant's batch question starts while the first's exam is queued", async () => {
    const [a, b] = [await newKey(uniqueTag("exam-school")), await newKey(uniqueTag("other-school"))];
    const group = uniqueTag("share-batch");
    const held = Array.from({ length: LIMIT + 2 }, (_, i) => `${group}-a${i}`);
    const exam = await request("POST", "/v1/batches", {
      key: a,
      body: { items: held.map((tag) => ({ question: `Exam. [tag:${tag}] [hold-after:0]`, answers: answers([3, 8], tag), debias: false })) },
    });
    expect(exam.status).toBe(202);
    expect(await gate().admission()).toMatchObject({ running: SHARE, queued: LIMIT + 2 - SHARE });

    const bTag = `${group}-b`;
    const other = await request("POST", "/v1/batches", {
      key: b,
      body: { items: [{ question: `Explain queues. [tag:${bTag}]`, answers: answers([3, 8], bTag) }] },
    });
    expect(other.status).toBe(202);
    expect(await gate().admission()).toMatchObject({ running: SHARE + 1, queued: LIMIT + 2 - SHARE });
    const [bId] = (await request("GET", `/v1/batches/${other.json.id}`, { key: b })).json.evaluations as string[];
    expect((await waitUntilDone(bId, b)).status).toBe("completed");

    // and meanwhile the exam held its share, none of it ended, and the rest of it stayed queued
    const aIds = (await request("GET", `/v1/batches/${exam.json.id}`, { key: a })).json.evaluations as string[];
    await expectShareHeld(a, aIds, held);
    await letGo(a, aIds, held);
  });

  it("cancels a queued evaluation without it ever reaching the judge, and gives its place on", async () => {
    const key = await newKey("school");
    const group = uniqueTag("cq");
    const running: string[] = [];
    for (let i = 0; i < SHARE; i++) running.push(await post(key, `${group}-r${i}`, SLOW_MS, i + 1));
    const queued = await post(key, `${group}-q`, 10);
    const next = await post(key, `${group}-n`, 10);
    expect((await gate().admission()).queued).toBe(2);

    const cancelled = await request("DELETE", `/v1/evaluations/${queued}`, { key });
    expect(cancelled.status).toBe(200);
    expect(cancelled.json.status).toBe("cancelled");
    expect(await gate().admission()).toMatchObject({ queued: 1 });

    await Promise.all([...running, next].map((id) => waitUntilDone(id, key)));
    expect((await waitUntilDone(queued, key)).status).toBe("cancelled");
    expect(await judgeLog(`${group}-q`)).toEqual([]);
    expect((await judgeLog(`${group}-n`)).length).toBe(6);
    expect(await gate().admission()).toMatchObject({ running: 0, queued: 0 });
  });

  it("tells the gate that started an evaluation when it ends, also once the configured judge (so the gate) has changed", async () => {
    // queued at the gate of a judge URL configured before (JUDGE_BASE_URL or JUDGE_ENDPOINTS changed
    // since): that gate still counts it, and starts it; the end must reach that gate, not the new one
    const tenant = uniqueTag("moved");
    const key = await newKey(tenant);
    const tag = uniqueTag("old-gate");
    const body = evaluationBody.parse({ question: `Explain queues. [tag:${tag}]`, answers: answers([3, 8, 1, 6], tag) });
    const input = evaluationInput(body, tenant);
    await insertEvaluation(database(env.DB), input, { webhookUrl: null, metadata: null });
    const before = env.JUDGE_GATE.get(env.JUDGE_GATE.idFromName("http://judge-configured-before.example/v1"));
    await before.enqueue([{ id: input.id, tenant }]);

    expect((await waitUntilDone(input.id, key)).status).toBe("completed");
    await gateIdle(undefined, before);
    expect(await gate().admission()).toMatchObject({ running: 0, queued: 0 });
  });

  it("forgets a queued id that names no evaluation (its start finds nothing in D1)", async () => {
    await gate().enqueue([{ id: `ev_${crypto.randomUUID().replace(/-/g, "")}`, tenant: "nobody" }]);
    await until(
      "the gate to let the unknown id go",
      async () => (await gate().admission()).running + (await gate().admission()).queued === 0,
    );
  });
});

describe("a queued evaluation's input, read back from D1", () => {
  it("is the input that was saved, field for field", async () => {
    const input: EvaluationInput = {
      id: `ev_${crypto.randomUUID().replace(/-/g, "")}`,
      tenant: "school",
      question: "Why is the sky blue? ```` backticks",
      reference: null,
      maxScore: 7.5,
      template: "exam-de",
      method: "individual",
      debias: false,
      pairing: "bracket",
      seed: 4242,
      judge: {
        model: "m-1",
        temperature: 0.3,
        structuredOutputs: true,
        scoreFrom: "text",
        maxTokens: 300,
        panel: ["m-1", "m-2"],
        panelMode: "all",
      },
      promptVersion: "exam-de@1+rubric@1",
      byes: "paper",
      gradeBoundaries: [1.5, 4],
      extraCalls: 0,
      // not the defaults, so a column that is written but not read back fails the comparison
      reviewShare: 0.3,
      reviewThreshold: 0.6,
      webhookUrl: "https://example.com/hook",
      answers: [
        { id: "x", text: "Rayleigh scattering", examinee: "student-1" },
        { id: "y", text: "" },
      ],
      rubric: { criteria: [{ name: "accuracy", maxScore: 5, description: "is it right" }] },
      batchId: null,
      batchIndex: null,
      createdAt: 1_700_000_000_123,
    };
    const db = database(env.DB);
    await db.batch(evaluationInserts(db, input, { webhookUrl: input.webhookUrl ?? null, metadata: { k: 1 } }) as never);
    expect(await loadInput(db, input.id)).toEqual(input);
    expect(await loadInput(db, "ev_none")).toBeNull();
  });
});
