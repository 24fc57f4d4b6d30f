import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { beginErasure } from "../../src/db/erasures";
import { exportStream } from "../../src/evaluations/export";
import { seedCanary } from "./canary-seed";
import { answers, gateIdle, newKey, postEvaluation, request, uniqueTag, waitUntilDone } from "./helpers";

type Line = Record<string, any> & { type: string };

/** A GET of an export, its response as the service sends it (the stream not yet read). */
async function exportResponse(path: string, key: string): Promise<Response> {
  const { exports } = await import("cloudflare:workers");
  return (exports as unknown as { default: Fetcher }).default.fetch(
    new Request(`http://service.test${path}`, { headers: { authorization: `Bearer ${key}` } }),
  );
}

/** A response's NDJSON, read whole (as bytes: workerd warns on .text() of a type it does not know as text). */
const body = async (r: Response) => new TextDecoder().decode(await r.arrayBuffer());

const parse = (text: string): Line[] =>
  text
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l));

describe("export: GET /v1/tenant/export and /v1/subjects/export", () => {
  it("streams the tenant's data as NDJSON, equal to what the API shows; a person's alone; admin only, audited", async () => {
    const tenant = uniqueTag("export-tenant");
    const key = await newKey(tenant, ["admin"]);
    const writer = await newKey(tenant);
    const canary = `xcnry${crypto.randomUUID().slice(0, 8)}`;
    const seeded = await seedCanary(key, canary);
    // another tenant's data never shows
    const other = await newKey(uniqueTag("export-other"), ["admin"]);
    const theirs = await seedCanary(other, `${canary}T`);

    for (const path of ["/v1/tenant/export", `/v1/subjects/export?examinee=${canary}`]) {
      const refused = await request("GET", path, { key: writer });
      expect(refused.status, path).toBe(403);
    }
    const bad = await request("GET", "/v1/subjects/export", { key });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.json)).toContain("examinee");

    const response = await exportResponse("/v1/tenant/export", key);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/x-ndjson");
    const lines = parse(await body(response));
    expect(JSON.stringify(lines)).not.toContain(`${canary}T`);
    expect(lines.map((l) => l.id ?? l.evaluationId)).not.toContain(theirs.evaluation);

    const evaluations = lines.filter((l) => l.type === "evaluation").map((l) => l.id);
    expect(evaluations).toEqual(expect.arrayContaining([seeded.evaluation, ...seeded.batchQuestions, seeded.collectionEvaluation]));
    expect(evaluations).toHaveLength(4);
    // each evaluation's answers, grades and feedback are what GET /v1/evaluations/:id shows
    for (const id of evaluations) {
      const shown = (await request("GET", `/v1/evaluations/${id}`, { key })).json;
      const exported = lines.filter((l) => l.evaluationId === id);
      expect(exported.filter((l) => l.type === "answer")).toEqual(
        shown.answers.map((a: any) => ({
          type: "answer",
          evaluationId: id,
          id: a.id,
          examinee: a.examinee ?? null,
          text: a.text,
          score: a.score,
          rank: a.rank,
        })),
      );
      expect(exported.filter((l) => l.type === "grade").map((l) => [l.answerId, l.teacherScore])).toEqual(
        shown.answers.filter((a: any) => a.teacherScore !== null).map((a: any) => [a.id, a.teacherScore]),
      );
      const feedback = exported.filter((l) => l.type === "feedback").map(({ type, evaluationId, answerId, ...f }) => [answerId, f]);
      expect(new Map(feedback as [string, unknown][])).toEqual(
        new Map(shown.answers.filter((a: any) => a.feedback).map((a: any) => [a.id, a.feedback])),
      );
    }
    // the teacher's grade and edited feedback are there
    expect(lines).toContainEqual(
      expect.objectContaining({ type: "grade", answerId: `${canary}E-e1`, teacherScore: 7, note: `${canary}E note` }),
    );
    expect(lines).toContainEqual(expect.objectContaining({ type: "feedback", answerId: `${canary}E-e1`, from: "teacher" }));
    // the collection and what was submitted to it, with the names typed in
    expect(lines).toContainEqual(expect.objectContaining({ type: "collection", id: seeded.collection }));
    expect(lines.filter((l) => l.type === "collection-answer").map((l) => l.name)).toEqual([`${canary}C Name 1`, `${canary}C Name 2`]);

    // one person: their answer, its grade and feedback, the evaluation it answers; no one else's
    const person = parse(
      await body(await exportResponse(`/v1/subjects/export?examinee=${encodeURIComponent(`${canary}E Student 1`)}`, key)),
    );
    expect(person.map((l) => l.type)).toEqual(["evaluation", "answer", "grade", "feedback"]);
    expect(person[1]).toMatchObject({ id: `${canary}E-e1`, examinee: `${canary}E Student 1` });
    expect(JSON.stringify(person)).not.toContain(`${canary}E Student 2`);
    const submitter = parse(
      await body(await exportResponse(`/v1/subjects/export?examinee=${encodeURIComponent(`${canary}C Name 2`)}`, key)),
    );
    expect(submitter.map((l) => l.type)).toEqual(["collection", "collection-answer"]);
    expect(submitter[1].text).toContain(`${canary}C submitted`);

    // the trail says who exported, never whom
    const trail = (await request("GET", "/v1/audit?limit=100", { key })).json.data as { what: string }[];
    expect(trail.filter((l) => l.what === "tenant.export")).toHaveLength(1);
    expect(trail.filter((l) => l.what === "subject.export")).toHaveLength(2);
    expect(JSON.stringify(trail)).not.toContain(`${canary}E Student`);
    await gateIdle();
  });

  it("an erasure while an export runs removes whole items from it, never half of one", async () => {
    const tenant = uniqueTag("export-erase");
    const key = await newKey(tenant, ["admin"]);
    const canary = `xcnry${crypto.randomUUID().slice(0, 8)}`;
    const seeded = await seedCanary(key, canary);
    // an erasure cut off after its tombstone, before any deletion: every row of it is still there
    const extra = await postEvaluation(key, { question: "Q [tag:export-cut]", maxScore: 10, answers: answers([4, 6], `${canary}X`) });
    await waitUntilDone(extra, key);
    await beginErasure(env.DB, { id: extra, tenant, kind: "evaluation", by: "test", now: Date.now() });

    // the stream as the route sends it, read as a slow client would: one item a read
    const reader = exportStream(env, tenant, null).getReader();
    const decoder = new TextDecoder();
    const first = await reader.read();
    let text = decoder.decode(first.value, { stream: true });
    expect(text).toContain(seeded.evaluation);
    // meanwhile the batch and the collection are erased
    for (const path of [`/v1/batches/${seeded.batch}/erase`, `/v1/collections/${seeded.collection}/erase`])
      expect((await request("POST", path, { key })).status).toBe(200);
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += decoder.decode(chunk.value, { stream: true });
    const lines = parse(text);
    for (const gone of [`${canary}B`, `${canary}C`, `${canary}X`]) expect(JSON.stringify(lines)).not.toContain(gone);
    for (const erased of [...seeded.batchQuestions, seeded.collectionEvaluation, seeded.collection, extra])
      expect(lines.filter((l) => l.id === erased || l.evaluationId === erased || l.collectionId === erased)).toEqual([]);
    // what was not erased is whole: every answer of the first evaluation
    expect(lines.filter((l) => l.type === "answer" && l.evaluationId === seeded.evaluation)).toHaveLength(3);
    await gateIdle();
  });
});
