import { inject } from "vitest";
import { describe, expect, it } from "vitest";
import { newKey, request, uniqueTag, until } from "./helpers";

const SITE = "https://course.example";
const hook = (tag: string) => `http://127.0.0.1:${inject("receiverPort")}/hook/${tag}/200`;
const received = async (tag: string): Promise<{ body: string }[]> =>
  (await fetch(`http://127.0.0.1:${inject("receiverPort")}/received?tag=${tag}`)).json();

/** A collection of `qualities.length` answers, closed and graded; its evaluation id and each answer's receipt token. */
async function graded(key: string, settings: Record<string, unknown>, qualities: number[]) {
  const c = (
    await request("POST", "/v1/collections", {
      key,
      body: { question: `What is a queue? [tag:${uniqueTag("colrel")}]`, allowedOrigins: [SITE], ...settings },
    })
  ).json;
  const tokens: string[] = [];
  for (const [i, q] of qualities.entries()) {
    const sent = await request("POST", `/v1/public/collections/${c.publicToken}/answers`, {
      body: { text: `Answer q=${q}` },
      headers: { origin: SITE, "cf-connecting-ip": `198.51.100.${i + 10}` },
    });
    expect(sent.status).toBe(201);
    tokens.push(sent.json.receiptToken);
  }
  const receipt = (i: number) => request("GET", `/v1/receipts/${tokens[i]}`).then((r) => r.json);
  expect((await receipt(0)).status).toBe("collecting");
  await request("POST", `/v1/collections/${c.id}/close`, { key });
  const done = await until("graded", async () => {
    const r = (await request("GET", `/v1/collections/${c.id}`, { key })).json;
    return r.evaluation?.status === "completed" ? r : null;
  });
  return { collection: c, evaluation: done.evaluation.id as string, answers: done.answers as { id: string; text: string }[], receipt };
}

describe("a collection's release", () => {
  it("manual: a receipt shows nothing of the grade until its answer is released, then its final grade; a later grade shows as updated", async () => {
    const key = await newKey("col-release");
    const tag = uniqueTag("colrelhook");
    const { collection, evaluation, answers, receipt } = await graded(key, { webhook: { url: hook(tag) } }, [3, 8, 5]);
    expect(collection).toMatchObject({ release: "manual", showRank: false, gradeStep: 0.5 });
    for (const i of [0, 1, 2]) {
      const r = await receipt(i);
      expect(r.status).toBe("in review");
      expect(r.result).toBeNull();
      // nothing of the grade in any field: the page is public
      expect(JSON.stringify(r)).not.toMatch(/score|rank|feedback/i);
    }

    // the teacher rewrites this student's feedback before releasing it
    const note = "Good start: now say what push and pop do.";
    const edited = await request("PUT", `/v1/evaluations/${evaluation}/answers/${answers[1].id}/feedback`, { key, body: { text: note } });
    expect(edited.status).toBe(200);
    expect(JSON.stringify(await receipt(1))).not.toContain(note);

    const released = await request("POST", `/v1/evaluations/${evaluation}/release`, { key, body: { answers: [answers[1].id] } });
    expect(released.status).toBe(200);
    const mine = released.json.answers[0];
    const second = await receipt(1);
    expect(second.status).toBe("graded");
    expect(second.result).toEqual({
      finalScore: mine.finalScore,
      maxScore: 10,
      releasedAt: mine.releasedAt,
      updatedAt: null,
      feedback: { text: note, from: "teacher", editedAt: edited.json.feedback.editedAt },
    });
    // the others still wait
    for (const i of [0, 2]) expect(await receipt(i)).toMatchObject({ status: "in review", result: null });

    const regraded = await request("PUT", `/v1/evaluations/${evaluation}/answers/${answers[1].id}/grade`, { key, body: { score: 6.3 } });
    expect(regraded.status).toBe(200);
    const updated = await receipt(1);
    expect(updated.result).toMatchObject({ finalScore: 6.5, releasedAt: mine.releasedAt, updatedAt: regraded.json.gradedAt });

    // a withdrawal hides it again
    await request("DELETE", `/v1/evaluations/${evaluation}/release`, { key, body: { answers: [answers[1].id] } });
    expect(await receipt(1)).toMatchObject({ status: "in review", result: null });

    const got = await until("the release webhook", async () => {
      const list = (await received(tag)).map((r) => JSON.parse(r.body));
      return list.find((m) => m.type === "collection.released") ?? null;
    });
    expect(got.data).toEqual({
      id: collection.id,
      evaluation,
      status: "completed",
      maxScore: 10,
      answers: [{ id: answers[1].id, finalScore: mine.finalScore, finalFrom: "judge", releasedAt: mine.releasedAt }],
      releasedAt: mine.releasedAt,
    });
  });

  it("auto: released when grading completes, with the rank only when showRank", async () => {
    const key = await newKey("col-auto");
    const ranked = await graded(key, { release: "auto", showRank: true }, [2, 9]);
    const view = (await request("GET", `/v1/evaluations/${ranked.evaluation}`, { key })).json;
    expect(view.answers.every((a: any) => a.releasedAt === view.completedAt)).toBe(true);
    const top = await ranked.receipt(1);
    expect(top).toMatchObject({
      status: "graded",
      result: { maxScore: 10, rank: 1, of: 2, releasedAt: view.completedAt, updatedAt: null },
    });
    expect(top.result.finalScore).toBe(view.answers.find((a: any) => a.text === "Answer q=9").finalScore);

    const unranked = await graded(key, { release: "auto" }, [2, 9]);
    const r = await unranked.receipt(0);
    expect(r.status).toBe("graded");
    expect(Object.keys(r.result).sort()).toEqual(["feedback", "finalScore", "maxScore", "releasedAt", "updatedAt"]);
  });
});
