import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { judgeGateStub } from "../../src/platform/stubs";
import { evaluationInput } from "../../src/evaluations/input";
import { evaluationBody } from "../../src/contract";
import { evaluationInserts } from "../../src/db/evaluations";
import { database } from "../../src/db/database";
import { ADMIN, answers, countRows, newKey, postEvaluation, request, uniqueTag, until, waitUntilDone } from "./helpers";

const LONE = "\ud800"; // JSON.stringify sends it as the escape "\ud800", as the attack did
const LIMIT = 4; // JUDGE_MAX_RUNNING in vitest.config.ts
const SITE = "https://course.example";

const gate = () => judgeGateStub(env);

async function refused(path: string, body: unknown, field: string, options: { key?: string; headers?: Record<string, string> } = {}) {
  const r = await request("POST", path, { body, ...options });
  expect(r.status, `${path} ${field}: ${JSON.stringify(r.json)}`).toBe(400);
  expect(r.headers.get("content-type")).toBe("application/problem+json");
  expect(r.json.errors).toContainEqual({ field, reason: expect.stringContaining("lone UTF-16 surrogate") });
}

describe("text that cannot be stored as sent is refused at the door", () => {
  it(`refuses lone surrogates in every field of every body with a 400 naming the field (issue 11: answers [{"id":"\\ud800"},{"id":"\\ud801"}] was a 202 that held a running place forever)`, async () => {
    const tenant = uniqueTag("school");
    const key = await newKey(tenant);
    const ok = { question: "What is a stack?", answers: answers([3, 5]) };
    const evaluations = [
      [
        {
          ...ok,
          answers: [
            { id: "\ud800", text: "x" },
            { id: "\ud801", text: "y" },
          ],
        },
        "answers[0].id",
      ],
      [{ ...ok, answers: [ok.answers[0], { ...ok.answers[1], text: `fine ${LONE} then` }] }, "answers[1].text"],
      [{ ...ok, answers: [{ ...ok.answers[0], examinee: `m${LONE}` }, ok.answers[1]] }, "answers[0].examinee"],
      [{ ...ok, question: `${LONE}?` }, "question"],
      [{ ...ok, reference: "\udfff" }, "reference"],
      [{ ...ok, method: "individual", rubric: { criteria: [{ name: `acc${LONE}` }] } }, "rubric.criteria[0].name"],
      [{ ...ok, judge: { model: LONE } }, "judge.model"],
      [{ ...ok, metadata: { course: { weeks: [1, `w${LONE}`] } } }, "metadata.course.weeks[1]"],
      [{ ...ok, metadata: { [`k${LONE}`]: 1 } }, "metadata.k\\uD800"],
      // the high half of an emoji without its low half
      [{ ...ok, metadata: { note: "\ud83d" } }, "metadata.note"],
    ] as const;
    for (const [body, field] of evaluations) await refused("/v1/evaluations", body, field, { key });
    expect(await countRows("evaluations", tenant)).toBe(0);

    await refused(
      "/v1/batches",
      {
        items: [
          {
            ...ok,
            answers: [
              { id: LONE, text: "x" },
              { id: "\ud801", text: "y" },
            ],
          },
        ],
      },
      "items[0].answers[0].id",
      { key },
    );
    await refused("/v1/batches", { defaults: { question: LONE }, items: [{ answers: ok.answers }] }, "defaults.question", { key });
    await refused("/v1/batches", { items: [ok], metadata: { name: `exam ${LONE}` } }, "metadata.name", { key });
    expect(await countRows("batches", tenant)).toBe(0);

    await refused("/v1/keys", { tenant: `t${LONE}` }, "tenant", { key: ADMIN });
    await refused("/v1/ratings", { games: [{ a: LONE, b: "m2", outcome: 1 }] }, "games[0].a", { key });
    await refused("/v1/ratings", { outcomes: { [LONE]: [1], m2: [0] }, matchSize: 1, rounds: 1 }, "outcomes.\\uD800", { key });

    const collection = { question: `What is a stack? [tag:${uniqueTag("col")}]`, closing: { maxAnswers: 50 }, allowedOrigins: [SITE] };
    await refused("/v1/collections", { ...collection, question: `q${LONE}` }, "question", { key });
    const made = await request("POST", "/v1/collections", { key, body: collection });
    expect(made.status).toBe(201);
    const form = { headers: { origin: SITE, "cf-connecting-ip": "203.0.113.7" } };
    await refused(`/v1/public/collections/${made.json.publicToken}/answers`, { text: `LIFO ${LONE}` }, "text", form);
    await refused(`/v1/public/collections/${made.json.publicToken}/answers`, { text: "LIFO", name: `Ana${LONE}` }, "name", form);
    expect((await request("GET", `/v1/collections/${made.json.id}`, { key })).json.answerCount).toBe(0);
  });

  it("keeps well-formed text as it was sent: emoji (surrogate pairs) and other scripts are not surrogates", async () => {
    const key = await newKey("school");
    const text = "Ein Stapel 📚: LIFO, 후입선출, 後入先出 q=5";
    const id = await postEvaluation(key, {
      question: "Was ist ein Stapel? 🧱",
      answers: [
        { id: "📚", text },
        { id: "s2", text: "q=3" },
      ],
      metadata: { "👩‍🏫": "Frau 🇩🇪" },
    });
    const done = await waitUntilDone(id, key);
    expect(done.status).toBe("completed");
    expect(done.metadata).toEqual({ "👩‍🏫": "Frau 🇩🇪" });
    expect(done.answers.map((a: { id: string }) => a.id).sort()).toEqual(["s2", "📚"]);
  });
});

describe("an evaluation that cannot start fails and gives its running place back", () => {
  /** An evaluation saved as one was before the fix: ids that D1 reads back as the same replacement characters. */
  async function saveUnstartable(tenant: string): Promise<string> {
    const body = evaluationBody.parse({ question: "q", answers: answers([3, 5]) });
    const input = evaluationInput(
      {
        ...body,
        answers: [
          { id: "\ud800", text: "x" },
          { id: "\ud801", text: "y" },
        ],
      },
      tenant,
    );
    const db = database(env.DB);
    await db.batch(evaluationInserts(db, input, { webhookUrl: null, metadata: null }) as never);
    return input.id;
  }

  it("ends failed with the reason, and another tenant's question runs (issue 11: 4 such evaluations held every JUDGE_MAX_RUNNING place, the judge idle)", async () => {
    const [attacker, school] = [await newKey("attacker"), await newKey("school")];
    const stuck: string[] = [];
    for (let i = 0; i < LIMIT; i++) stuck.push(await saveUnstartable("attacker"));
    await gate().enqueue(stuck.map((id) => ({ id, tenant: "attacker" })));
    const question = await postEvaluation(school, {
      question: `What is a stack? [tag:${uniqueTag("after")}]`,
      answers: answers([3, 8, 1]),
    });

    for (const id of stuck) {
      const done = await waitUntilDone(id, attacker, 10_000);
      expect(done.status).toBe("failed");
      expect(done.error).toBe("the evaluation could not start: answer ids must be unique");
      // its answers are kept as they were read back, unscored
      expect(done.answers).toHaveLength(2);
      expect(done.answers.every((a: { score: unknown }) => a.score === null)).toBe(true);
      // answered properly: it already ended (it answered 500 before)
      const del = await request("DELETE", `/v1/evaluations/${id}`, { key: attacker });
      expect(del.status).toBe(409);
      expect(del.json.detail).toMatch(/already failed/);
    }
    expect((await waitUntilDone(question, school, 10_000)).status).toBe("completed");
    await until("every running place to be given back", async () => {
      const a = await gate().admission();
      return a.running === 0 && a.queued === 0;
    });
  });

  it("is cancelled with a 200 while still queued (DELETE answered 500)", async () => {
    const key = await newKey("attacker");
    const id = await saveUnstartable("attacker"); // saved, not yet started by the gate
    const del = await request("DELETE", `/v1/evaluations/${id}`, { key });
    expect(del.status).toBe(200);
    expect(del.json).toEqual({ id, status: "cancelled" });
    const done = await waitUntilDone(id, key);
    expect(done).toMatchObject({ status: "cancelled", error: "cancelled by the client" });
    expect(done.answers).toHaveLength(2);
  });
});
