import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { answers, newKey, request, type SseEvent, sseReader, uniqueTag, releaseJudge } from "./helpers";

type Event = SseEvent;

/** Reads server-sent events until `end` (or the stream closes). */
async function readEvents(
  path: string,
  key: string,
  onEvent: (e: Event) => Promise<void> = async () => {},
): Promise<{ status: number; type: string | null; events: Event[] }> {
  const response = await (exports as unknown as { default: Fetcher }).default.fetch(
    new Request(`http://service.test${path}`, { headers: { authorization: `Bearer ${key}` } }),
  );
  if (response.status !== 200) return { status: response.status, type: response.headers.get("content-type"), events: [] };
  const events: Event[] = [];
  const next = sseReader(response);
  for (let e = await next(); e; e = await next()) {
    events.push(e);
    await onEvent(e);
  }
  return { status: 200, type: response.headers.get("content-type"), events };
}

describe("GET /v1/evaluations/:id/events", () => {
  it("streams an evaluation still waiting for its turn as queued, then runs it to the end", async () => {
    const key = await newKey("live");
    const tag = uniqueTag("queued");
    // JUDGE_MAX_RUNNING (4) evaluations hold the judge, so the fifth waits in the gate's queue
    const busy = await Promise.all(
      [1, 2, 3, 4].map(
        async (k) =>
          (
            await request("POST", "/v1/evaluations", {
              key,
              body: { question: `Busy [tag:${tag}-${k}] [delay:150]`, answers: answers([1, 2, 3]), seed: k },
            })
          ).json.id as string,
      ),
    );
    const created = await request("POST", "/v1/evaluations", {
      key,
      body: { question: `Q [tag:${tag}]`, answers: answers([1, 9, 4]), seed: 7 },
    });
    const stream = await readEvents(`/v1/evaluations/${created.json.id}/events`, key);
    expect(stream.events[0]).toMatchObject({ event: "snapshot", data: { status: "queued", answerCount: 3, progress: { done: 0 } } });
    expect(stream.events.at(-1)).toEqual({ event: "end", data: { status: "completed", error: null } });
    expect(busy).toHaveLength(4);
  });

  it("streams a snapshot, then each result as it is recorded, then the end", async () => {
    const key = await newKey("live");
    const tag = uniqueTag("events");
    // the judge holds every call after the fourth until released, so the stream surely opens mid-way
    const created = await request("POST", "/v1/evaluations", {
      key,
      body: { question: `Q [tag:${tag}] [hold-after:4]`, answers: answers([1, 9, 4, 6, 2, 8, 5]), seed: 7 },
    });
    expect(created.status).toBe(202);
    const stream = await readEvents(`/v1/evaluations/${created.json.id}/events`, key, async (e) => {
      if (e.event === "snapshot") await releaseJudge(tag);
    });
    expect(stream.type).toMatch(/^text\/event-stream/);
    const [first, ...rest] = stream.events;
    expect(first.event).toBe("snapshot");
    expect(first.data).toMatchObject({ id: created.json.id, method: "knockout", answerCount: 7, progress: { total: 12 } });
    expect(rest.at(-1)).toEqual({ event: "end", data: { status: "completed", error: null } });

    // applying every event in order as upserts by index gives the final bracket
    const bracket = new Map<number, any>(first.data.matches.map((m: any) => [m.index, m]));
    let done = first.data.progress.done;
    for (const e of rest.filter((x) => x.event === "progress")) {
      expect(e.data.progress.done).toBeGreaterThanOrEqual(done);
      done = e.data.progress.done;
      for (const m of e.data.matches) bracket.set(m.index, m);
    }
    expect(done).toBe(12);
    expect(first.data.progress.done).toBeLessThanOrEqual(4);
    expect(rest.filter((x) => x.event === "progress").length).toBeGreaterThanOrEqual(12 - first.data.progress.done);
    const final = await request("GET", `/v1/evaluations/${created.json.id}`, { key });
    expect([...bracket.values()].map((m) => [m.a, m.b, m.winner])).toEqual(final.json.matches.map((m: any) => [m.a, m.b, m.winner]));
    expect([...bracket.values()].find((m) => m.round === 3)?.winner).toBe("s2");
  });

  it("gives a finished evaluation's whole bracket and the end at once", async () => {
    const key = await newKey("live");
    const created = await request("POST", "/v1/evaluations", {
      key,
      body: { question: `Q [tag:${uniqueTag("ev")}]`, answers: answers([3, 5]) },
    });
    await readEvents(`/v1/evaluations/${created.json.id}/events`, key);
    const again = await readEvents(`/v1/evaluations/${created.json.id}/events`, key);
    expect(again.events.map((e) => e.event)).toEqual(["snapshot", "end"]);
    expect(again.events[0].data.matches).toHaveLength(1);
    expect(again.events[0].data.status).toBe("completed");
  });

  it("needs the owner's key", async () => {
    const key = await newKey("live");
    const created = await request("POST", "/v1/evaluations", {
      key,
      body: { question: `Q [tag:${uniqueTag("ev")}]`, answers: answers([3, 5]) },
    });
    expect((await readEvents(`/v1/evaluations/${created.json.id}/events`, await newKey("other"))).status).toBe(404);
    expect((await readEvents(`/v1/evaluations/${created.json.id}/events`, "kj_wrong")).status).toBe(401);
  });

  it("carries the judge's words as they are generated (match-text), a few updates a second, and gives a late viewer the words so far", async () => {
    const key = await newKey("live-words");
    const tag = uniqueTag("words");
    // one match, not debiased, written scores (no logprobs: a short stream); the judge writes its reply
    // a few bytes every 5 ms, over about half a second
    const created = await request("POST", "/v1/evaluations", {
      key,
      body: {
        question: `Explain a stack. [tag:${tag}] [drip-ms:5]`,
        answers: answers([2, 7]),
        debias: false,
        judge: { scoreFrom: "text" },
      },
    });
    let late: Promise<{ events: Event[] }> | null = null;
    const seen = await readEvents(`/v1/evaluations/${created.json.id}/events`, key, async (e) => {
      // a second viewer joins once the first words are out
      if (e.event === "match-text" && !late) late = readEvents(`/v1/evaluations/${created.json.id}/events`, key);
    });
    const words = seen.events.filter((e) => e.event === "match-text");
    expect(words.length).toBeGreaterThanOrEqual(2);
    for (const w of words) expect(w.data).toMatchObject({ match: 0, call: 0, text: expect.any(String) });
    // each update has more of the same reply, and the reply in the end is what the words were becoming
    for (let i = 1; i < words.length; i++) expect(words[i].data.text.startsWith(words[i - 1].data.text)).toBe(true);
    const final = await request("GET", `/v1/evaluations/${created.json.id}`, { key });
    expect(final.json.matches[0].calls[0].raw.startsWith(words.at(-1)!.data.text)).toBe(true);
    // coalesced: far fewer events than the pieces the judge wrote
    expect(words.length).toBeLessThan(final.json.matches[0].calls[0].raw.length / 4);
    const second = (await late!).events;
    expect(second[0].event).toBe("snapshot");
    expect(second[1]).toMatchObject({ event: "match-text", data: { match: 0, call: 0 } });
    expect(second[1].data.text.length).toBeGreaterThan(0);
  });
});
