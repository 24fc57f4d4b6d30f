import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { answers, judgeLog, newKey, request, uniqueTag, until, waitUntilDone, releaseJudge } from "./helpers";
import { tournamentStub } from "../../src/platform/stubs";

/**
 * Kills the object as the runtime disposes of one on a restart. The reason starts with workerd's own
 * words for that ("Instance dispose"): the vitest plugin leaves the runtime's report of a disposed
 * instance's broken output gate unprinted, so the deliberate crash does not print an "uncaught
 * exception" in a passing run, while any other reason would.
 */
async function crash(stub: DurableObjectStub): Promise<void> {
  await runInDurableObject(stub, (_i: unknown, state: DurableObjectState) => state.abort("Instance dispose (a simulated crash)")).catch(
    () => {},
  );
}

describe("a tournament whose object dies mid-way", () => {
  it("picks up where it stopped: no recorded result lost, no finished call sent again", async () => {
    const key = await newKey("school");
    const tag = uniqueTag("evict");
    // 8 answers, debiased: round 1 is 8 calls; the judge answers 5 and holds the other 3 open
    const created = await request("POST", "/v1/evaluations", {
      key,
      body: {
        question: `Explain recursion. [tag:${tag}] [hold-after:5]`,
        answers: answers([3, 8, 1, 6, 4, 7, 2, 5]),
        debias: true,
        seed: 3,
        pairing: "round",
      },
    });
    expect(created.status).toBe(202);
    const id = created.json.id;
    let stub = tournamentStub(env, id);

    await until("5 answered and 3 held calls", async () => (await judgeLog(tag)).length === 8);
    const recorded = await until("5 recorded results", () =>
      runInDurableObject(stub, (_instance: unknown, state: DurableObjectState) => {
        const rows = state.storage.sql.exec<{ match: number; call: number }>("SELECT match, call FROM result").toArray();
        return rows.length === 5 ? rows : null;
      }),
    );

    // crash this one object, as a restart would: its held calls die with it
    await crash(stub);
    stub = tournamentStub(env, id); // the old stub is broken with its object
    expect(await runInDurableObject(stub, (_i: unknown, state: DurableObjectState) => state.storage.getAlarm())).not.toBeNull();
    await releaseJudge(tag);
    expect(await runDurableObjectAlarm(stub)).toBe(true); // the watchdog alarm was left behind

    const result = await waitUntilDone(id, key);
    expect(result.status).toBe("completed");
    expect(result.matches).toHaveLength(7);
    expect(result.usage.judgeCalls).toBe(14);

    // each call recorded before the eviction was asked exactly once; the held ones were asked again
    const log = await judgeLog(tag);
    const q = (id: string) => [3, 8, 1, 6, 4, 7, 2, 5][Number(id.slice(1)) - 1];
    const orderOf = (match: number, call: number) => result.matches[match].calls[call].order.map(q).join(",");
    for (const { match, call } of recorded) {
      expect(log.filter((e) => e.qualities.join(",") === orderOf(match, call))).toHaveLength(1);
    }
    const held = log.filter((e) => e.outcome === "held");
    expect(held).toHaveLength(3);
    for (const h of held) expect(log.filter((e) => e.outcome === "ok" && e.qualities.join(",") === h.qualities.join(","))).toHaveLength(1);
    expect(log.filter((e) => e.outcome === "ok")).toHaveLength(14);
  });
});

describe("a tournament whose object dies during its extra calls", () => {
  it("replays the knockout and the extra wave from the recorded results (expected scores included), and asks nothing twice", async () => {
    const key = await newKey("school-extra");
    const tag = uniqueTag("evict-extra");
    const qualities = [2, 4, 6, 8];
    // 6 knockout calls, then a wave of 2 extra matches (4 calls): the judge answers 2 of them and holds 2
    const created = await request("POST", "/v1/evaluations", {
      key,
      body: { question: `Explain recursion. [tag:${tag}] [hold-after:8]`, answers: answers(qualities), seed: 9, extraCalls: 4 },
    });
    expect(created.status).toBe(202);
    const id = created.json.id;
    let stub = tournamentStub(env, id);
    await until("8 answered and 2 held calls", async () => (await judgeLog(tag)).length === 10);
    const recorded = await until("8 recorded results, with their expected scores", () =>
      runInDurableObject(stub, (_instance: unknown, state: DurableObjectState) => {
        const rows = state.storage.sql
          .exec<{ match: number; call: number; expected: string | null }>("SELECT match, call, expected FROM result")
          .toArray();
        return rows.length === 8 ? rows : null;
      }),
    );
    for (const r of recorded) expect(r.expected).not.toBeNull();

    await crash(stub);
    stub = tournamentStub(env, id);
    await releaseJudge(tag);
    expect(await runDurableObjectAlarm(stub)).toBe(true);

    const result = await waitUntilDone(id, key);
    expect(result.status).toBe("completed");
    expect(result.usage.judgeCalls).toBe(10);
    expect(result.usage.extraCalls).toBe(4);
    expect(result.matches.filter((m: { round: unknown }) => m.round === "extra")).toHaveLength(2);
    const log = await judgeLog(tag);
    const q = (answerId: string) => qualities[Number(answerId.slice(1)) - 1];
    const orderOf = (match: number, call: number) => result.matches[match].calls[call].order.map(q).join(",");
    for (const { match, call } of recorded) {
      expect(log.filter((e) => e.outcome === "ok" && e.qualities.join(",") === orderOf(match, call))).toHaveLength(1);
    }
    expect(log.filter((e) => e.outcome === "ok")).toHaveLength(10);
  });
});
