import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { replay } from "../../src/evaluations/played";
import type { KnockoutState } from "../../src/core/types";
import type { Evaluation, MatchView } from "../../src/contract/responses";
import { newKey, postEvaluation, request, uniqueTag, storedRun, waitUntilDone } from "./helpers";

// Issue 26, item 3: extra calls go first to the answers with the fewest judgments, the first-round
// losers among them. Eight answers, a test judge that writes each answer's quality (no noise, no
// probabilities), and 4 extra calls: 2 debiased matches, enough for the 4 first-round losers. With seed
// 3 they are the answers of quality 9, 6, 2 and 0, and the closest pair that has not met is the loser
// of quality 9 and the winner of 8.5, so a placement by neighbours spends a match there and one
// loser gets none.

const question = (tag: string) => `Explain a stack. [tag:${tag}] [no-logprobs]`;
const answers = [10, 9.5, 9, 8.5, 6, 4, 2, 0].map((q, i) => ({ id: `a${i}`, text: `Answer ${i}: q=${q}. A stack is LIFO.` }));

/** The API's extra matches (round "extra"). */
const extras = (matches: MatchView[]) => matches.filter((m) => m.round === "extra");
/** The answers each extra match was played by. */
const extraPlayers = (matches: MatchView[]) => new Set(extras(matches).flatMap((m) => [m.a, m.b!]));
/** The answers that lost a round-1 match. */
const firstRoundLosers = (matches: MatchView[]) =>
  new Set(matches.filter((m) => m.round === 1 && m.b !== null).map((m) => (m.winner === m.a ? m.b! : m.a)));

async function graded(body: Record<string, unknown>): Promise<{ id: string; result: Evaluation }> {
  const key = await newKey("extra-placement");
  const id = await postEvaluation(key, {
    question: question(uniqueTag("placement")),
    maxScore: 10,
    seed: 3,
    answers,
    extraCalls: 4,
    ...body,
  });
  await waitUntilDone(id, key);
  const result = (await request("GET", `/v1/evaluations/${id}`, { key })).json as Evaluation;
  expect(result.status).toBe("completed");
  expect(extras(result.matches)).toHaveLength(2);
  return { id, result };
}

describe("extra calls go to the fewest judgments first", () => {
  it("every first-round loser plays an extra match by default, stored as widest, and so on replay", async () => {
    const { id, result } = await graded({});
    expect(result.extraPlacement).toBe("widest");
    const losers = firstRoundLosers(result.matches);
    expect(losers.size).toBe(4);
    const played = extraPlayers(result.matches);
    for (const loser of losers) expect(played.has(loser), `first-round loser ${loser} got an extra match`).toBe(true);

    const row = await env.DB.prepare("SELECT extra_placement FROM evaluations WHERE id = ?").bind(id).first<{ extra_placement: string }>();
    expect(row?.extra_placement).toBe("widest");

    const { input, results } = await storedRun(id);
    const replayed = replay(input, results) as KnockoutState;
    const pairs = (s: KnockoutState) => s.matches.filter((m) => m.extra).map((m) => [m.a, m.b].sort().join("-"));
    expect(pairs(replayed)).toEqual(extras(result.matches).map((m) => [m.a, m.b].sort().join("-")));
    // an evaluation stored before the option (no extraPlacement) plans as it was played: by neighbours
    const { extraPlacement: _, ...before } = input;
    const old = replay(before, results) as KnockoutState;
    expect(pairs(old)).not.toEqual(pairs(replayed));
  });

  it('"neighbours" in the request places them by neighbours, and says so', async () => {
    const { id, result } = await graded({ extraPlacement: "neighbours" });
    expect(result.extraPlacement).toBe("neighbours");
    const played = extraPlayers(result.matches);
    expect([...firstRoundLosers(result.matches)].some((loser) => !played.has(loser))).toBe(true);
    const row = await env.DB.prepare("SELECT extra_placement FROM evaluations WHERE id = ?").bind(id).first<{ extra_placement: string }>();
    expect(row?.extra_placement).toBe("neighbours");
  });

  it("refuses a placement it does not know, naming the field, and makes nothing", async () => {
    const key = await newKey("extra-placement-bad");
    const r = await request("POST", "/v1/evaluations", {
      key,
      body: { question: "Q?", maxScore: 10, answers, extraCalls: 8, extraPlacement: "random" },
    });
    expect(r.status).toBe(400);
    expect(r.headers.get("content-type")).toMatch(/problem\+json/);
    expect(JSON.stringify(r.json)).toContain("extraPlacement");
    expect((await request("GET", "/v1/evaluations", { key })).json.data).toEqual([]);
  });
});
