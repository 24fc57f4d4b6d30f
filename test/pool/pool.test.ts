import { env } from "cloudflare:workers";
import { afterEach, describe, expect, inject, it } from "vitest";
import type { JudgeLogEntry } from "../support/judge-server";
import { answers, newKey, postEvaluation, request, uniqueTag, until, waitUntilDone } from "../workers/helpers";

// The pool of vitest.config.ts's "pool" project: endpoint A (cap 2, its key from the secret POOL_A_KEY)
// and endpoint B (cap 3, no key), two real judge servers that test/pool/judges-setup.ts can kill.
const ports = inject("poolPorts");
const A = `http://127.0.0.1:${ports.a}/v1`;
const B = `http://127.0.0.1:${ports.b}/v1`;

const control = (what: "stop" | "start" | "serve", judge: "a" | "b", model = "") =>
  fetch(`http://127.0.0.1:${ports.control}/${what}?judge=${judge}&model=${model}`, { method: "POST" }).then((r) => r.text());
const log = (judge: "a" | "b", tag: string): Promise<JudgeLogEntry[]> =>
  fetch(`http://127.0.0.1:${ports[judge]}/log?tag=${tag}`).then((r) => r.json());
const stats = (judge: "a" | "b", group: string): Promise<{ maxOpen: number; requests: number }> =>
  fetch(`http://127.0.0.1:${ports[judge]}/stats?group=${group}`).then((r) => r.json());

interface EndpointView {
  url: string;
  served: number;
  failed: number;
  inFlight: number;
  circuit: { state: string; failuresInARow: number; reason: string | null };
}
const judges = async (key: string) => (await request("GET", "/v1/judges", { key })).json as { capacity: number; endpoints: EndpointView[] };
const endpoint = async (key: string, url: string) => (await judges(key)).endpoints.find((e) => e.url === url)!;

/** Every recorded call's endpoint, in match order. */
const endpointsOf = (result: { matches: { calls: { endpoint: string | null }[] }[] }) =>
  result.matches.flatMap((m) => m.calls.map((c) => c.endpoint));

/** Both judges up, serving the model the pool is configured with, and both circuits closed again. */
async function healthy(key: string) {
  await control("start", "a").catch(() => {});
  await control("start", "b").catch(() => {});
  await control("serve", "a", "test-judge");
  await control("serve", "b", "test-judge");
  await until("both circuits closed", async () => (await judges(key)).endpoints.every((e) => e.circuit.state === "closed"), 20_000);
}

describe("a pool of two judge servers", () => {
  let key = "";
  afterEach(async () => {
    await healthy(key);
  });

  it("sends each call to the least loaded endpoint, never above either's cap, with the endpoint recorded and the key of A sent to A only", async () => {
    key = await newKey(uniqueTag("pool"));
    const tag = uniqueTag("load");
    const id = await postEvaluation(key, {
      question: `Explain stacks. [tag:${tag}] [group:${tag}] [delay:150]`,
      maxScore: 5,
      answers: answers([1, 2, 3, 4, 5, 1, 2, 3, 4, 5, 1, 2, 3, 4, 5, 3]),
    });
    const done = await waitUntilDone(id, key);
    expect(done.status).toBe("completed");
    const [a, b] = [await stats("a", tag), await stats("b", tag)];
    // 16 calls open at once in round 1 and a pool of 2 + 3: each endpoint full, neither above its cap
    expect(a.maxOpen).toBe(2);
    expect(b.maxOpen).toBe(3);
    // every call that made a score says where it was answered, and that is where the judge saw it
    const where = endpointsOf(done);
    expect(where).toHaveLength(done.usage.judgeCalls);
    expect(where.filter((e) => e === A)).toHaveLength((await log("a", tag)).filter((e) => e.outcome === "ok").length);
    expect(where.filter((e) => e === B)).toHaveLength((await log("b", tag)).filter((e) => e.outcome === "ok").length);
    expect(where.filter((e) => e === B).length).toBeGreaterThan(where.filter((e) => e === A).length);
    expect(new Set((await log("a", tag)).map((e) => e.authorization))).toEqual(new Set(["Bearer sk-pool-a-secret"]));
    expect((await log("b", tag)).every((e) => e.authorization === undefined)).toBe(true);
    // and D1 keeps it
    const calls = await storedCalls(id);
    expect(calls.map((c) => c.endpoint).sort()).toEqual([...where].sort());

    const view = await request("GET", "/v1/judges", { key });
    expect(view.status).toBe(200);
    expect(view.json).toMatchObject({ model: "test-judge", capacity: 5 });
    expect(view.json.endpoints.map((e: EndpointView) => [e.url, e.circuit.state])).toEqual([
      [A, "closed"],
      [B, "closed"],
    ]);
    expect(view.json.endpoints[0].served + view.json.endpoints[1].served).toBeGreaterThanOrEqual(done.usage.judgeCalls);
    expect(view.json.endpoints[1].latencyMs.p95).toBeGreaterThanOrEqual(view.json.endpoints[1].latencyMs.p50);
    expect(JSON.stringify(view.json)).not.toContain("sk-pool-a-secret");
    expect((await request("GET", "/v1/judges")).status).toBe(401);
  });

  it("when B dies mid-run: its calls in flight are retried on A, its circuit opens, every call is scored once; started again, it is probed back in and serves", async () => {
    key = await newKey(uniqueTag("pool"));
    const tag = uniqueTag("kill");
    const id = await postEvaluation(key, {
      question: `Explain queues. [tag:${tag}] [group:${tag}] [delay:300]`,
      maxScore: 5,
      answers: answers([1, 2, 3, 4, 5, 1, 2, 3, 4, 5, 1, 2, 3, 4, 5, 3]),
    });
    await until("B has calls open", async () => (await stats("b", tag)).requests >= 3);
    await control("stop", "b");
    const done = await waitUntilDone(id, key);
    expect(done.status).toBe("completed");
    // the knockout's exact count: nothing lost, nothing recorded twice
    expect(done.usage.judgeCalls).toBe(30);
    const where = endpointsOf(done);
    expect(where).toHaveLength(30);
    // B's calls in flight broke off and were retried
    expect(done.usage.retries).toBeGreaterThanOrEqual(3);
    expect(where.filter((e) => e === A).length).toBeGreaterThan(20);
    const b = await endpoint(key, B);
    expect(["open", "probing"]).toContain(b.circuit.state);
    expect(b.failed).toBeGreaterThanOrEqual(3);
    // B again: the probe finds it and closes its circuit; the next evaluation uses it
    await control("start", "b");
    await until("B's circuit closed", async () => (await endpoint(key, B)).circuit.state === "closed", 20_000);
    const next = uniqueTag("back");
    const again = await waitUntilDone(
      await postEvaluation(key, {
        question: `Explain heaps. [tag:${next}] [delay:100]`,
        maxScore: 5,
        answers: answers([1, 2, 3, 4, 5, 2, 3, 4]),
      }),
      key,
    );
    expect(again.status).toBe("completed");
    expect(endpointsOf(again)).toContain(B);
  });

  it("keeps a server that comes back serving another model out of the pool, and lets it in once it serves the pool's model", async () => {
    key = await newKey(uniqueTag("pool"));
    await control("stop", "b");
    const tag = uniqueTag("out");
    const first = await waitUntilDone(
      await postEvaluation(key, {
        question: `Explain lists. [tag:${tag}] [delay:50]`,
        maxScore: 5,
        answers: answers([1, 2, 3, 4, 5, 2, 3, 4]),
      }),
      key,
    );
    expect(first.status).toBe("completed");
    await until("B's circuit open", async () => (await endpoint(key, B)).circuit.state !== "closed");
    await control("serve", "b", "other-judge");
    await control("start", "b");
    const out = await until(
      "B probed and kept out",
      async () => {
        const b = await endpoint(key, B);
        return b.circuit.state === "out" && b;
      },
      20_000,
    );
    expect(out.circuit.reason).toBe("it serves other-judge, not the pool's model test-judge");
    await control("serve", "b", "test-judge");
    await until("B back in", async () => (await endpoint(key, B)).circuit.state === "closed", 40_000);
  }, 60_000);

  it("refuses a pool whose endpoints serve different models, naming them", async () => {
    key = await newKey(uniqueTag("pool"));
    await control("serve", "b", "other-judge");
    const id = await postEvaluation(key, { question: "Explain trees.", maxScore: 5, answers: answers([1, 2, 3, 4]) });
    const done = await waitUntilDone(id, key);
    expect(done.status).toBe("failed");
    expect(done.error).toBe(`judge ${B} does not serve the model test-judge (its /v1/models lists other-judge)`);
    expect(done.usage.judgeCalls).toBe(0);
  });

  it("with every endpoint down, an evaluation waits for the pool and fails after JUDGE_DEADLINE_MS (3 s here), saying why", async () => {
    key = await newKey(uniqueTag("pool"));
    await control("stop", "a");
    await control("stop", "b");
    const id = await postEvaluation(key, { question: "Explain graphs.", maxScore: 5, answers: answers([1, 2, 3, 4]) });
    const done = await waitUntilDone(id, key, 15_000);
    expect(done.status).toBe("failed");
    expect(done.error).toBe("no judge endpoint answered /v1/models");
  });
});

/** The evaluation's calls as D1 keeps them. */
async function storedCalls(id: string): Promise<{ endpoint: string | null }[]> {
  const rows = await env.DB.prepare(
    "SELECT c.value ->> '$.endpoint' AS endpoint FROM matches, json_each(matches.calls) c WHERE evaluation_id = ?",
  )
    .bind(id)
    .all<{ endpoint: string | null }>();
  return rows.results;
}
