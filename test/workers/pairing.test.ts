import { describe, expect, it } from "vitest";
import { judgeLog, newKey, postEvaluation, request, uniqueTag, waitUntilDone } from "./helpers";

/** 8 answers; the one of quality 1 makes every call that shows it slow, so its round-1 match ends last. */
const field = (tag: string) =>
  [6, 8, 1, 7, 3, 5, 2, 4].map((q, i) => ({
    id: `p${i + 1}`,
    text: `Answer ${i + 1}: q=${q}. ${q === 1 ? "[slow:700]" : ""} [tag:${tag}]`,
  }));

async function grade(pairing: string | undefined, tag: string) {
  const key = await newKey("school");
  const body: Record<string, unknown> = { question: `Explain caching. [tag:${tag}]`, answers: field(tag), seed: 5 };
  if (pairing) body.pairing = pairing;
  return waitUntilDone(await postEvaluation(key, body), key);
}

/** The judge log split into the slow round-1 match's calls and the calls of every later round. */
async function split(tag: string, result: { matches: { round: number; a: string; b: string }[] }) {
  const log = await judgeLog(tag);
  const q = (id: string) => [6, 8, 1, 7, 3, 5, 2, 4][Number(id.slice(1)) - 1];
  const round1 = new Set(result.matches.filter((m) => m.round === 1).flatMap((m) => [`${q(m.a)},${q(m.b)}`, `${q(m.b)},${q(m.a)}`]));
  const slow = log.filter((e) => e.qualities.includes(1) && round1.has(e.qualities.join(",")));
  const later = log.filter((e) => !round1.has(e.qualities.join(",")));
  return { log, slow, later };
}

describe("pairing", () => {
  it("bracket (the default): later matches start while a slow match of round 1 is still being judged", async () => {
    const tag = uniqueTag("bracket");
    const result = await grade(undefined, tag);
    expect(result.status).toBe("completed");
    expect(result.pairing).toBe("bracket");
    expect(result.matches).toHaveLength(7);
    expect(result.usage.judgeCalls).toBe(14);
    const { log, slow, later } = await split(tag, result);
    expect(log).toHaveLength(14);
    expect(slow).toHaveLength(2);
    const slowDone = Math.min(...slow.map((e) => e.answered!));
    // a round-2 match of two fast feeders was sent before the slow match had its first reply
    expect(later.some((e) => e.arrived < slowDone)).toBe(true);
  });

  it("round (the paper): no later match is sent before every match of round 1 is in", async () => {
    const tag = uniqueTag("round");
    const result = await grade("round", tag);
    expect(result.status).toBe("completed");
    expect(result.pairing).toBe("round");
    expect(result.matches).toHaveLength(7);
    const { slow, later } = await split(tag, result);
    const slowDone = Math.max(...slow.map((e) => e.answered!));
    expect(later.length).toBe(6);
    expect(later.every((e) => e.arrived > slowDone)).toBe(true);
  });

  it("refuses an unknown pairing, naming the field", async () => {
    const key = await newKey("school");
    const r = await request("POST", "/v1/evaluations", { key, body: { question: "Q", answers: field("x"), pairing: "swiss" } });
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.json)).toContain("pairing");
  });
});
