import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { newKey, request, sseReader, uniqueTag } from "./helpers";

const SITE = "https://course.example";

function create(key: string, question: string) {
  return request("POST", "/v1/collections", { key, body: { question, maxScore: 10, closing: { maxAnswers: 50 }, allowedOrigins: [SITE] } });
}

function submit(token: string, text: string) {
  return request("POST", `/v1/public/collections/${token}/answers`, {
    body: { text, name: "Ada" },
    headers: { origin: SITE, "cf-connecting-ip": "203.0.113.9" },
  });
}

/** Opens the collection's event stream; `next()` reads the next event, null once the stream ended. */
async function openEvents(id: string, key: string) {
  const response = await (exports as unknown as { default: Fetcher }).default.fetch(
    new Request(`http://service.test/v1/collections/${id}/events`, { headers: { authorization: `Bearer ${key}` } }),
  );
  if (response.status !== 200) return { status: response.status, next: async () => null };
  return { status: 200, type: response.headers.get("content-type"), next: sseReader(response) };
}

describe("the tenant's collections", () => {
  it("GET /v1/collections lists them newest first, a page at a time, each tenant its own", async () => {
    const key = await newKey(uniqueTag("lister"));
    const first = await create(key, "First question");
    const second = await create(key, "Second question");
    await submit(second.json.publicToken, "An answer.");
    const page = await request("GET", "/v1/collections?limit=1", { key });
    expect(page.status).toBe(200);
    expect(page.json.data).toEqual([
      {
        id: second.json.id,
        status: "open",
        question: "Second question",
        answerCount: 1,
        evaluation: null,
        createdAt: expect.any(String),
        closedAt: null,
      },
    ]);
    const rest = await request("GET", `/v1/collections?limit=1&cursor=${page.json.nextCursor}`, { key });
    expect(rest.json.data.map((c: { id: string }) => c.id)).toEqual([first.json.id]);
    expect(rest.json.nextCursor).toBeNull();
    const stranger = await request("GET", "/v1/collections", { key: await newKey(uniqueTag("stranger")) });
    expect(stranger.json.data).toEqual([]);
    expect((await request("GET", "/v1/collections?limit=0", { key })).status).toBe(400);
    expect((await request("GET", "/v1/collections?cursor=nope!", { key })).status).toBe(400);
  });

  it("GET /v1/collections/:id/events: the answers so far, each new one as it arrives, the closing, the grading's start", async () => {
    const key = await newKey(uniqueTag("watcher"));
    const created = await create(key, `Watched question [tag:${uniqueTag("watch")}]`);
    const { id, publicToken } = created.json;
    await submit(publicToken, "Before the page opened. q=3");
    const stream = await openEvents(id, key);
    expect(stream.status).toBe(200);
    const snapshot = await stream.next();
    expect(snapshot).toMatchObject({ event: "snapshot", data: { status: "open", answerCount: 1 } });
    expect(snapshot!.data.answers[0]).toMatchObject({ id: "a1", name: "Ada", text: "Before the page opened. q=3" });

    await submit(publicToken, "While it watched.\nTwo lines. q=7");
    expect(await stream.next()).toMatchObject({
      event: "answer",
      data: { answerCount: 2, answer: { id: "a2", text: "While it watched.\nTwo lines. q=7" } },
    });

    await request("POST", `/v1/collections/${id}/close`, { key });
    expect(await stream.next()).toMatchObject({ event: "closed", data: { closedBy: "owner" } });
    const graded = await stream.next();
    expect(graded).toMatchObject({ event: "graded", data: { evaluation: expect.stringMatching(/^ev_/) } });
    expect(await stream.next()).toBeNull(); // the stream ends there; the evaluation's own stream follows the grading

    // a late viewer gets the whole story at once
    const late = await openEvents(id, key);
    expect((await late.next())?.event).toBe("snapshot");
    expect(await late.next()).toMatchObject({ event: "graded", data: { evaluation: graded!.data.evaluation } });
    expect(await late.next()).toBeNull();

    // another tenant's key: 404, as for every route
    expect((await openEvents(id, await newKey(uniqueTag("other")))).status).toBe(404);
  });
});
