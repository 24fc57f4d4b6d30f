import { inject } from "vitest";
import { expect } from "vitest";
import { request, uniqueTag, until, waitUntilDone } from "./helpers";
import { answer, deepLink, giveToolKeys, linkLaunch } from "./lti-course-helpers";
import { registerPlatform } from "./lti-helpers";

const SITE = "https://course.example";
const hook = (tag: string, script: string) => `http://127.0.0.1:${inject("receiverPort")}/hook/${tag}/${script}`;

/** Student data with a canary in it, through every route that takes some; the ids of what it made. */
export async function seedCanary(key: string, canary: string) {
  // each part's data carries a canary of its own, so a test can erase one part and find the others
  const [E, B, C] = [`${canary}E`, `${canary}B`, `${canary}C`];
  const tag = uniqueTag("map");
  const evaluation = (
    await request("POST", "/v1/evaluations", {
      key,
      body: {
        question: `What is a stack? [tag:${tag}]`,
        maxScore: 10,
        feedback: "judge",
        metadata: { student: `${E}-meta` },
        webhook: { url: hook(tag, "200") },
        answers: [1, 2, 3].map((n) => ({
          id: `${E}-e${n}`,
          examinee: `${E} Student ${n}`,
          text: `${E} answer q=${n + 4}. LIFO.`,
        })),
      },
    })
  ).json.id as string;
  const batch = (
    await request("POST", "/v1/batches", {
      key,
      body: {
        // a receiver that never accepts: the payload stays queued for another attempt
        webhook: { url: hook(`${tag}-b`, "500") },
        metadata: { course: `${B}-course` },
        items: [1, 2].map((k) => ({
          question: `Question ${k} [tag:${tag}-b]`,
          maxScore: 10,
          answers: [1, 2].map((n) => ({ id: `${B}-b${k}${n}`, examinee: `${B} Examinee ${n}`, text: `${B} q=${n + 3}.` })),
        })),
      },
    })
  ).json.id as string;
  const collection = (
    await request("POST", "/v1/collections", {
      key,
      body: { question: `What is a queue? [tag:${tag}-c]`, maxScore: 10, closing: { maxAnswers: 2 }, allowedOrigins: [SITE] },
    })
  ).json;
  const receipts: string[] = [];
  for (const n of [1, 2]) {
    const submitted = await request("POST", `/v1/public/collections/${collection.publicToken}/answers`, {
      body: { text: `${C} submitted q=${n + 5}`, name: `${C} Name ${n}` },
      headers: { origin: SITE, "cf-connecting-ip": `203.0.113.${n}` },
    });
    expect(submitted.status).toBe(201);
    receipts.push(submitted.json.receiptToken);
  }

  const done = await waitUntilDone(evaluation, key);
  expect(done.status, done.error).toBe("completed");
  const answerId = `${E}-e1`;
  const path = `/v1/evaluations/${evaluation}/answers/${answerId}`;
  expect((await request("PUT", `${path}/grade`, { key, body: { score: 7, note: `${E} note` } })).status).toBe(200);
  expect((await request("PUT", `${path}/feedback`, { key, body: { text: `${E} feedback by the teacher` } })).status).toBe(200);
  expect((await request("POST", `/v1/evaluations/${evaluation}/release`, { key, body: {} })).status).toBe(200);
  const share = (await request("POST", `/v1/evaluations/${evaluation}/share`, { key, body: { includeExaminee: true } })).json
    .token as string;

  const collectionEvaluation = await until("the collection's grading", async () => {
    const c = (await request("GET", `/v1/collections/${collection.id}`, { key })).json;
    return c.evaluation?.id ?? null;
  });
  await waitUntilDone(collectionEvaluation, key);
  const batchQuestions = await until("the batch to end", async () => {
    const b = (await request("GET", `/v1/batches/${batch}`, { key })).json;
    return b.status === "completed" ? (b.evaluations as string[]) : null;
  });
  // the evaluation's webhook delivered, the batch's queued
  await until("both webhooks queued", async () => {
    const e = (await request("GET", `/v1/evaluations/${evaluation}/deliveries`, { key })).json.data;
    const b = (await request("GET", `/v1/batches/${batch}/deliveries`, { key })).json.data;
    return e.length > 0 && b.length > 0 ? true : null;
  });
  return {
    evaluation,
    batch,
    batchQuestions,
    collection: collection.id as string,
    collectionEvaluation,
    receipts,
    share,
    publicToken: collection.publicToken as string,
  };
}

/**
 * A learner with the canary as their LMS id and name, through a real LTI launch of a question placed by
 * deep linking, who answers (the canary in the text too). `key` needs the `admin` scope (it registers
 * the platform). The collection's id, and the learner as `POST /v1/subjects/erase` names them.
 */
export async function seedLtiLearner(key: string, canary: string) {
  const tag = uniqueTag("map-lti");
  await registerPlatform(key, tag);
  await giveToolKeys(tag);
  const { item } = await deepLink(tag, { question: `What is a heap? [tag:${tag}]`, maxScore: "10" });
  const sub = `${canary}-sub`;
  const page = await linkLaunch(tag, item, { sub, role: "learner", name: `${canary} Learner` });
  expect(page.status).toBe(200);
  const session = String(page.json).match(/name="session" value="([^"]*)"/)?.[1] as string;
  expect((await answer(session, `${canary} answered q=6`)).status).toBe(201);
  return { collection: item.custom.collection as string, sub, session, platformId: (await platformOf(key, tag)) as string };
}

async function platformOf(key: string, tag: string): Promise<string | undefined> {
  const list = (await request("GET", "/v1/lti/platforms", { key })).json.data as { id: string; clientId: string }[];
  return list.find((p) => p.clientId === `client-${tag}`)?.id;
}
