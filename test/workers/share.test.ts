import { describe, expect, it } from "vitest";
import { methods } from "../../src/contract";
import { answers, countRows, newKey, request, uniqueTag, waitUntilDone } from "./helpers";

async function finished(key: string) {
  const created = await request("POST", "/v1/evaluations", {
    key,
    body: { question: `Q [tag:${uniqueTag("share")}]`, reference: "LIFO", answers: answers([3, 7, 5]) },
  });
  await waitUntilDone(created.json.id, key);
  return created.json.id as string;
}

describe("read-only share links", () => {
  it("shows one finished evaluation, texts included, to anyone with the link, and nothing else", async () => {
    const key = await newKey("sharer");
    const id = await finished(key);
    const link = await request("POST", `/v1/evaluations/${id}/share`, { key });
    expect(link.status).toBe(201);
    expect(link.json.url).toBe(`http://service.test/share/${link.json.token}`);

    const view = await request("GET", `/v1/shared/${link.json.token}`);
    expect(view.status).toBe(200);
    expect(view.json).toMatchObject({
      question: expect.stringContaining("Q [tag:"),
      reference: "LIFO",
      maxScore: 10,
      status: "completed",
      champion: "s2",
    });
    expect(view.json.answers.map((a: any) => [a.id, a.rank, a.text])).toEqual([
      ["s1", 3, "Answer by s1: q=3. The stack is LIFO."],
      ["s2", 1, "Answer by s2: q=7. The stack is LIFO."],
      ["s3", 2, "Answer by s3: q=5. The stack is LIFO."],
    ]);
    expect(view.json.matches[0].calls[0].raw).toMatch(/^Explanation:/);
    // the judge server that answered is not shown to the link's holder (the tenant sees it)
    expect(view.json.matches[0].calls[0]).not.toHaveProperty("endpoint");
    expect(Object.keys(view.json)).not.toContain("tenant");

    // the token is no key, and the stored value is its hash
    expect((await request("GET", `/v1/evaluations/${id}`, { key: link.json.token })).status).toBe(401);
    const { env } = await import("cloudflare:workers");
    const stored = await env.DB.prepare("SELECT token_hash FROM share_links WHERE evaluation_id = ?")
      .bind(id)
      .first<{ token_hash: string }>();
    expect(stored!.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored!.token_hash).not.toBe(link.json.token);

    // revoked: the link shows nothing any more
    expect((await request("DELETE", `/v1/evaluations/${id}/share`, { key })).json).toEqual({ revoked: 1 });
    expect((await request("GET", `/v1/shared/${link.json.token}`)).status).toBe(404);
  });

  it("is only for the owner, and only once the evaluation is completed", async () => {
    const key = await newKey("sharer");
    const id = await finished(key);
    expect((await request("POST", `/v1/evaluations/${id}/share`, { key: await newKey("other") })).status).toBe(404);
    expect((await request("POST", `/v1/evaluations/${id}/share`)).status).toBe(401);
    const running = await request("POST", "/v1/evaluations", {
      key,
      body: { question: `Q [tag:${uniqueTag("s")}] [hold-after:0]`, answers: answers([1, 2]) },
    });
    const early = await request("POST", `/v1/evaluations/${running.json.id}/share`, { key });
    expect(early.status).toBe(409);
    expect(early.json.detail).toMatch(/^only a completed evaluation can be shared; this one is (queued|running)$/);
    expect((await request("GET", "/v1/shared/sh_unknown")).status).toBe(404);
  });
});

// issue 25: the share view showed the judge's scores only, not the grade each student is given
describe("a share link and the final grades", () => {
  it("carries each answer's finalScore and finalFrom as the owner sees them, and never the feedback", async () => {
    const key = await newKey("sharer-final");
    const created = await request("POST", "/v1/evaluations", {
      key,
      body: { question: `Q [tag:${uniqueTag("share-final")}]`, reference: "LIFO", feedback: "judge", answers: answers([3, 7, 5]) },
    });
    const id = created.json.id as string;
    await waitUntilDone(id, key);
    expect((await request("PUT", `/v1/evaluations/${id}/answers/s1/grade`, { key, body: { score: 6.2 } })).status).toBe(200);
    const note = "Only for s1: name push and pop.";
    expect((await request("PUT", `/v1/evaluations/${id}/answers/s1/feedback`, { key, body: { text: note } })).status).toBe(200);
    const owner = (await request("GET", `/v1/evaluations/${id}`, { key })).json;
    expect(owner.answers.every((a: any) => typeof a.feedback?.text === "string")).toBe(true);

    const link = await request("POST", `/v1/evaluations/${id}/share`, { key, body: { includeExaminee: true } });
    const view = await request("GET", `/v1/shared/${link.json.token}`);
    expect(view.status).toBe(200);
    const final = (answers: any[]) => answers.map((a) => [a.id, a.finalScore, a.finalFrom]);
    expect(final(view.json.answers)).toEqual(final(owner.answers));
    // the teacher's 6.2 on the default step of 0.5; the others the judge's
    expect(final(view.json.answers)[0]).toEqual(["s1", 6, "teacher"]);
    expect(view.json.answers.slice(1).map((a: any) => a.finalFrom)).toEqual(["judge", "judge"]);
    // feedback is written for its own student: no answer of the link carries it, the judge's nor the teacher's
    for (const a of view.json.answers) expect(a).not.toHaveProperty("feedback");
    const text = JSON.stringify(view.json);
    expect(text).not.toContain(note);
    for (const a of owner.answers) expect(text).not.toContain(a.feedback.text);
  });
});

// issue 23, item 12: every share link showed each answer's examinee (an e-mail in the attack)
describe("a share link and the examinees", () => {
  async function withExaminees(key: string) {
    const created = await request("POST", "/v1/evaluations", {
      key,
      body: {
        question: `Q [tag:${uniqueTag("share-who")}]`,
        answers: answers([3, 7]).map((a, i) => ({ ...a, examinee: `student${i + 1}@school.example` })),
      },
    });
    await waitUntilDone(created.json.id, key);
    return created.json.id as string;
  }

  it("leaves each answer's examinee out unless the owner asks for it when sharing", async () => {
    const key = await newKey("sharer-who");
    const id = await withExaminees(key);
    // the owner sees them
    expect((await request("GET", `/v1/evaluations/${id}`, { key })).json.answers.map((a: any) => a.examinee).sort()).toEqual([
      "student1@school.example",
      "student2@school.example",
    ]);
    for (const body of [undefined, {}, { includeExaminee: false }]) {
      const link = await request("POST", `/v1/evaluations/${id}/share`, { key, body });
      expect(link.status, JSON.stringify(body)).toBe(201);
      const view = await request("GET", `/v1/shared/${link.json.token}`);
      expect(view.json.answers.map((a: any) => a.rank).sort(), JSON.stringify(body)).toEqual([1, 2]);
      expect(JSON.stringify(view.json), JSON.stringify(body)).not.toContain("school.example");
    }
    const opted = await request("POST", `/v1/evaluations/${id}/share`, { key, body: { includeExaminee: true } });
    expect(opted.status).toBe(201);
    const view = await request("GET", `/v1/shared/${opted.json.token}`);
    expect(view.json.answers.map((a: any) => [a.id, a.examinee])).toEqual([
      ["s1", "student1@school.example"],
      ["s2", "student2@school.example"],
    ]);
  });

  it("refuses a share body it does not understand, and makes no link", async () => {
    const key = await newKey("sharer-who-bad");
    const id = await withExaminees(key);
    const before = await countRows("share_links");
    const bad = await request("POST", `/v1/evaluations/${id}/share`, { key, body: { includeExaminee: "yes" } });
    expect(bad.status).toBe(400);
    expect(bad.json.errors.map((e: any) => e.field)).toEqual(["includeExaminee"]);
    const unknown = await request("POST", `/v1/evaluations/${id}/share`, { key, body: { includeExaminees: true } });
    expect(unknown.status).toBe(400);
    expect(await countRows("share_links")).toBe(before);
  });
});

describe("the web front's pages and meta", () => {
  it("serves the pages whose URL carries a token, and frames the form only on allowed sites", async () => {
    // (here requests reach the Worker directly; "/" and other static files come from the asset router, tested in test/browser)
    for (const [path, marker] of [
      ["/share/sh_x", "Shared results"],
      ["/receipt/rc_x", "Your answer"],
    ]) {
      const r = await request("GET", path);
      expect(r.status, path).toBe(200);
      expect(r.headers.get("content-type"), path).toMatch(/^text\/html/);
      expect(r.json, path).toContain(marker);
    }
    const key = await newKey("embedder");
    const c = await request("POST", "/v1/collections", {
      key,
      body: { question: "Q", allowedOrigins: ["https://a.example", "http://b.example:8080"] },
    });
    const page = await request("GET", `/embed/${c.json.publicToken}`);
    expect(page.status).toBe(200);
    expect(page.headers.get("referrer-policy")).toBe("no-referrer");
    // issue 11, defect 11: the embed page sent only `frame-ancestors …`, dropping the default policy on the
    // origin where a teacher's key sits in localStorage. Now: every page's directives, and its own frame-ancestors
    const directives = (policy: string | null) =>
      new Map(
        (policy ?? "")
          .split(";")
          .map((d) => d.trim())
          .filter(Boolean)
          .map((d) => [d.split(/\s+/)[0], d] as const),
      );
    const pagesPolicy = directives((await request("GET", "/share/sh_x")).headers.get("content-security-policy"));
    expect(pagesPolicy.get("default-src")).toBe("default-src 'self'");
    const embedPolicy = directives(page.headers.get("content-security-policy"));
    expect(Object.fromEntries(embedPolicy)).toEqual({
      ...Object.fromEntries(pagesPolicy),
      "frame-ancestors": "frame-ancestors https://a.example http://b.example:8080",
    });
    expect(embedPolicy.get("script-src")).toBe("script-src 'self'");
    const unknown = directives((await request("GET", "/embed/pc_unknown")).headers.get("content-security-policy"));
    expect(Object.fromEntries(unknown)).toEqual(Object.fromEntries(pagesPolicy)); // frame-ancestors 'none' among them
  });

  it("lists the methods and templates the API takes", async () => {
    const r = await request("GET", "/v1/meta");
    // exactly what POST /v1/evaluations validates against, so the page offers nothing the API refuses
    expect(r.json).toMatchObject({ methods: [...methods], templates: ["exam", "exam-de", "translation"], limits: { maxAnswers: 256 } });
    expect(methods).toContain("round-robin");
  });
});
