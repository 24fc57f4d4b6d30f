import { describe, expect, it } from "vitest";
import { ApiProblem, knockoutJudge, retryDelayMs } from "../../../src/client/index";

/** A fetch that answers from a script, and records what it was asked. */
function scripted(answers: Response[]) {
  const asked: { url: string; method: string; auth: string | null; body: unknown }[] = [];
  const send = async (url: string | URL | Request, init?: RequestInit) => {
    asked.push({
      url: String(url),
      method: init?.method ?? "GET",
      auth: new Headers(init?.headers).get("authorization"),
      body: init?.body ? JSON.parse(String(init.body)) : undefined,
    });
    const next = answers.shift();
    if (!next) throw new TypeError("connection refused");
    return next;
  };
  return { asked, send: send as typeof fetch };
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

describe("the typed client", () => {
  it("sends the key and the body, encodes ids in paths, and retries a 503 and a refused connection", async () => {
    const judge = scripted([json(503, { detail: "busy" }), json(202, { id: "ev_1", status: "queued" })]);
    const api = knockoutJudge({ baseUrl: "http://svc/", key: "kj_x", fetch: judge.send, attempts: 3 });
    const created = await api.createEvaluation({
      question: "Q",
      answers: [
        { id: "a", text: "x" },
        { id: "b", text: "y" },
      ],
    });
    expect(created).toEqual({ id: "ev_1", status: "queued" });
    expect(judge.asked.map((a) => [a.method, a.url, a.auth])).toEqual([
      ["POST", "http://svc/v1/evaluations", "Bearer kj_x"],
      ["POST", "http://svc/v1/evaluations", "Bearer kj_x"],
    ]);
    expect(judge.asked[1].body).toMatchObject({ question: "Q" });

    const grading = scripted([json(200, { answerId: "a/b", teacherScore: 3, note: null, gradedAt: "2026-01-01T00:00:00Z" })]);
    await knockoutJudge({ baseUrl: "http://svc", key: "k", fetch: grading.send }).gradeAnswer("ev_1", "a/b", { score: 3 });
    expect(grading.asked[0].url).toBe("http://svc/v1/evaluations/ev_1/answers/a%2Fb/grade");
  });

  it("throws a refusal as an ApiProblem with its problem details, without retrying it", async () => {
    const judge = scripted([json(400, { type: "about:blank", title: "Bad Request", status: 400, detail: "question: must not be empty" })]);
    const api = knockoutJudge({ baseUrl: "http://svc", key: "k", fetch: judge.send });
    const err = await api.createEvaluation({ question: "", answers: [] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiProblem);
    expect((err as ApiProblem).status).toBe(400);
    expect((err as ApiProblem).problem?.detail).toBe("question: must not be empty");
    expect(judge.asked).toHaveLength(1);
  });

  it("waits at least a 429's Retry-After before asking again, and its backoff when it names none", async () => {
    const refused = (retryAfter?: string) =>
      new Response(JSON.stringify({ status: 429, detail: "over the read budget" }), {
        status: 429,
        headers: { "content-type": "application/problem+json", ...(retryAfter ? { "retry-after": retryAfter } : {}) },
      });
    const waits: number[] = [];
    const judge = scripted([refused("3"), refused(), refused("7"), json(200, { id: "ev_1", status: "running" })]);
    const api = knockoutJudge({ baseUrl: "http://svc", key: "k", fetch: judge.send, sleep: async (ms) => void waits.push(ms) });
    expect(await api.evaluation("ev_1")).toEqual({ id: "ev_1", status: "running" });
    expect(judge.asked).toHaveLength(4);
    expect(waits).toHaveLength(3);
    expect(waits[0]).toBeGreaterThanOrEqual(3_000);
    // no Retry-After: the backoff of the second retry, 1 s with jitter in [0.5, 1)
    expect(waits[1]).toBeGreaterThanOrEqual(500);
    expect(waits[1]).toBeLessThan(1_000);
    expect(waits[2]).toBeGreaterThanOrEqual(7_000);
  });

  it("reads Retry-After as seconds or as an HTTP date, and never waits less than its backoff", () => {
    const now = Date.parse("2026-11-26T10:00:00Z");
    expect(retryDelayMs(1, "2", now, 0)).toBe(2_000);
    expect(retryDelayMs(1, "Thu, 26 Nov 2026 10:00:05 GMT", now, 0)).toBe(5_000);
    // a date gone by, a nonsense value or none: the backoff (attempt 1: 500 ms, times 0.5 to 1)
    for (const header of ["Thu, 26 Nov 2026 09:00:00 GMT", "soon", "-3", null]) expect(retryDelayMs(1, header, now, 0)).toBe(250);
    expect(retryDelayMs(1, "0", now, 0.5)).toBe(375);
    // a backoff longer than Retry-After wins
    expect(retryDelayMs(6, "1", now, 0)).toBe(5_000);
  });
});

describe("the typed client's newer routes", () => {
  it("puts only the audit query's given values in the query string, and sends a release's body only when given", async () => {
    const judge = scripted([
      json(200, { data: [], nextCursor: null }),
      json(200, { data: [], nextCursor: null }),
      json(200, { id: "ev_1", maxScore: 10, answers: [], released: 2, of: 2 }),
      json(200, { id: "ev_1", maxScore: 10, answers: [], released: 1, of: 2 }),
    ]);
    const api = knockoutJudge({ baseUrl: "http://svc", key: "k", fetch: judge.send });
    await api.audit();
    await api.audit({ since: "2026-01-01T00:00:00+01:00", cursor: "c/1", limit: 5 });
    await api.releaseAnswers("ev_1");
    await api.withdrawRelease("ev_1", { answers: ["a"] });
    expect(judge.asked.map((a) => [a.method, a.url, a.body])).toEqual([
      ["GET", "http://svc/v1/audit", undefined],
      ["GET", "http://svc/v1/audit?since=2026-01-01T00%3A00%3A00%2B01%3A00&cursor=c%2F1&limit=5", undefined],
      ["POST", "http://svc/v1/evaluations/ev_1/release", undefined],
      ["DELETE", "http://svc/v1/evaluations/ev_1/release", { answers: ["a"] }],
    ]);
  });

  it("reads an export's NDJSON lines as they arrive, a line split across chunks joined, and throws its refusal", async () => {
    const chunks = ['{"type":"evaluation","id":"e', '1"}\n\n{"type":"ans', 'wer","id":"é"}\n{"type":"end"}'];
    const bytes = new TextEncoder().encode(chunks.join(""));
    // split the UTF-8 of "é" in two as well
    const cut = [0, 20, bytes.indexOf(0xc3) + 1, bytes.length];
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 1; i < cut.length; i++) controller.enqueue(bytes.slice(cut[i - 1], cut[i]));
        controller.close();
      },
    });
    const judge = scripted([new Response(body, { status: 200, headers: { "content-type": "application/x-ndjson" } })]);
    const api = knockoutJudge({ baseUrl: "http://svc", key: "k", fetch: judge.send });
    const lines = [];
    for await (const line of api.exportSubject("Ana B")) lines.push(line);
    expect(lines).toEqual([{ type: "evaluation", id: "e1" }, { type: "answer", id: "é" }, { type: "end" }]);
    expect(judge.asked[0].url).toBe("http://svc/v1/subjects/export?examinee=Ana+B");

    const refused = scripted([json(403, { status: 403, detail: "needs the admin scope" })]);
    const exported = knockoutJudge({ baseUrl: "http://svc", key: "k", fetch: refused.send }).exportTenant();
    // nothing is asked before the loop starts
    expect(refused.asked).toHaveLength(0);
    const err = await exported.next().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiProblem);
    expect((err as ApiProblem).status).toBe(403);
  });
});
