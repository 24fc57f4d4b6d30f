import { describe, expect, it } from "vitest";
import { defaultStreamsPerKey } from "../../src/limits/stream-leases";
import { answers, firstEvent, newKey, openStream, request, sseReader, uniqueTag, until, releaseJudge } from "./helpers";

async function openCollection(key: string): Promise<string> {
  const c = await request("POST", "/v1/collections", { key, body: { question: "Q", allowedOrigins: ["https://school.example"] } });
  expect(c.status).toBe(201);
  return c.json.id;
}

// issue 23, item 14: 1,000 viewers of one collection's stream, all on one key, slowed another tenant
describe("the cap on a key's open event streams", () => {
  it(`opens ${defaultStreamsPerKey} streams per key, across collections and evaluations; the next is a 429 until one closes`, async () => {
    const key = await newKey("stream-crowd");
    const collection = await openCollection(key);
    const tag = uniqueTag("crowd");
    // an evaluation held mid-way by the judge, so its stream stays open too
    const evaluation = await request("POST", "/v1/evaluations", {
      key,
      body: { question: `Q [tag:${tag}] [hold-after:0]`, answers: answers([1, 2]) },
    });
    expect(evaluation.status).toBe(202);
    const streams: Response[] = [await openStream(`/v1/evaluations/${evaluation.json.id}/events`, key)];
    for (let i = 1; i < defaultStreamsPerKey; i++) streams.push(await openStream(`/v1/collections/${collection}/events`, key));
    for (const s of streams) expect(s.status).toBe(200);
    // each is live: its snapshot came
    expect(await firstEvent(streams[1])).toMatch(/^event: snapshot$/m);

    for (const path of [`/v1/collections/${collection}/events`, `/v1/evaluations/${evaluation.json.id}/events`]) {
      const refused = await openStream(path, key);
      expect(refused.status, path).toBe(429);
      expect(refused.headers.get("content-type"), path).toBe("application/problem+json");
      expect(Number(refused.headers.get("retry-after")), path).toBeGreaterThan(0);
      expect(((await refused.json()) as { detail: string }).detail, path).toContain(`${defaultStreamsPerKey} event streams open`);
    }
    // another key, even of another tenant watching its own, is not held back by this one
    const other = await newKey("stream-other");
    const theirs = await openStream(`/v1/collections/${await openCollection(other)}/events`, other);
    expect(theirs.status).toBe(200);
    await theirs.body!.cancel();

    // a viewer goes away: its place is free again
    await streams.pop()!.body!.cancel();
    const next = await until("a place is free", async () => {
      const r = await openStream(`/v1/collections/${collection}/events`, key);
      if (r.status === 200) return r;
      await r.body?.cancel();
      return null;
    });
    streams.push(next);
    expect((await openStream(`/v1/collections/${collection}/events`, key)).status).toBe(429);

    // a stream that ends by itself (the evaluation finished) gives its place back too
    await releaseJudge(tag);
    const ended = sseReader(streams[0]);
    while ((await ended()) !== null) {}
    const after = await until("the ended stream's place is free", async () => {
      const r = await openStream(`/v1/collections/${collection}/events`, key);
      if (r.status === 200) return r;
      await r.body?.cancel();
      return null;
    });
    streams.push(after);
    for (const s of streams.slice(1)) await s.body!.cancel();
  });
});
