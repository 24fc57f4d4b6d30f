import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { replay } from "../../src/evaluations/played";
import type { KnockoutState } from "../../src/core/types";
import type { Evaluation, MatchView } from "../../src/contract/responses";
import { newKey, postEvaluation, request, uniqueTag, storedRun, waitUntilDone } from "./helpers";

// Issue 30, item 6. Four answers of the same quality, judged without probabilities by a test judge
// that moves each score by -1, 0 or +1 drawn from the call's seed ([seed-noise:1]): with the
// evaluation's seed fixed, the calls' seeds and so every score are too. Seed 21's final is a tie of
// its written scores between two answers whose round-1 scores differ; seed 10's final is a tie
// between answers whose round-1 scores are equal.

const question = (tag: string) => `Explain a stack. [tag:${tag}] [seed-noise:1] [no-logprobs]`;
const answers = ["w", "x", "y", "z"].map((id, i) => ({ id, text: `q=5 answer ${i}` }));

/** An answer's record before a round, from the API's matches: the mean of its earlier match scores. */
function recordOf(id: string, round: number, matches: MatchView[]): number {
  const mine = matches.filter((m) => m.round !== "extra" && m.round < round && (m.a === id || m.b === id));
  return mine.reduce((s, m) => s + (m.a === id ? m.scoreA! : m.scoreB!), 0) / mine.length;
}

async function graded(seed: number): Promise<{ id: string; result: Evaluation; final: MatchView }> {
  const key = await newKey("record-tie");
  const id = await postEvaluation(key, { question: question(uniqueTag("record")), maxScore: 10, seed, answers });
  await waitUntilDone(id, key);
  const result = (await request("GET", `/v1/evaluations/${id}`, { key })).json as Evaluation;
  expect(result.status).toBe("completed");
  const final = result.matches.find((m) => m.round === 2)!;
  expect(final.scoreA).toBe(final.scoreB);
  return { id, result, final };
}

describe("a final nothing split goes to the better earlier record", () => {
  it("the first-shown finalist with the higher round-1 score wins, reported as record, in D1 and on replay", async () => {
    const { id, result, final } = await graded(21);
    expect(result.tieBreak).toBe("record");
    const [ra, rb] = [recordOf(final.a, 2, result.matches), recordOf(final.b!, 2, result.matches)];
    // the better record is the pair's first answer here, so the paper's rule would have eliminated it
    expect(ra).toBeGreaterThan(rb);
    expect(final.winner).toBe(final.a);
    expect(final.tie).toBe("record");
    expect(result.champion).toBe(final.a);

    const row = await env.DB.prepare("SELECT tie FROM matches WHERE evaluation_id = ? AND round = 2").bind(id).first<{ tie: string }>();
    expect(row?.tie).toBe("record");
    const settings = await env.DB.prepare("SELECT tie_break FROM evaluations WHERE id = ?").bind(id).first<{ tie_break: string }>();
    expect(settings?.tie_break).toBe("record");

    const { input, results } = await storedRun(id);
    const replayed = replay(input, results) as KnockoutState;
    expect(replayed.champion).toBe(final.a);
    // an evaluation stored before the rule (no tieBreak) replays as it was played: the second answer
    const { tieBreak: _, ...before } = input;
    const old = replay(before, results) as KnockoutState;
    const oldFinal = old.matches.find((m) => m.round === 2)!;
    expect(oldFinal.winner).toBe(final.b);
    expect(oldFinal.tie).toBe("position");
  });

  it("equal records leave the paper's rule: the second answer advances, reported as position", async () => {
    const { result, final } = await graded(10);
    expect(recordOf(final.a, 2, result.matches)).toBe(recordOf(final.b!, 2, result.matches));
    expect(final.winner).toBe(final.b);
    expect(final.tie).toBe("position");
  });
});

describe("tieBreak in the request", () => {
  it('"position" keeps the paper\'s rule for a new evaluation, and says so', async () => {
    const key = await newKey("record-tie-asked");
    const id = await postEvaluation(key, { question: question(uniqueTag("paper")), maxScore: 10, seed: 21, answers, tieBreak: "position" });
    await waitUntilDone(id, key);
    const result = (await request("GET", `/v1/evaluations/${id}`, { key })).json as Evaluation;
    expect(result.tieBreak).toBe("position");
    const final = result.matches.find((m) => m.round === 2)!;
    expect(final.scoreA).toBe(final.scoreB);
    expect(final.winner).toBe(final.b);
    expect(final.tie).toBe("position");
  });

  it("refuses a rule it does not know, naming the field, and makes nothing", async () => {
    const key = await newKey("record-tie-bad");
    const r = await request("POST", "/v1/evaluations", { key, body: { question: "Q?", maxScore: 10, answers, tieBreak: "coin" } });
    expect(r.status).toBe(400);
    expect(r.headers.get("content-type")).toMatch(/problem\+json/);
    expect(JSON.stringify(r.json)).toContain("tieBreak");
    expect((await request("GET", "/v1/evaluations", { key })).json.data).toEqual([]);
  });
});
