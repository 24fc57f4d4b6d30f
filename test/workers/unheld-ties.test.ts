import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { replay } from "../../src/evaluations/played";
import type { KnockoutState } from "../../src/core/types";
import type { Evaluation } from "../../src/contract/responses";
import { judgeLog, newKey, postEvaluation, request, uniqueTag, storedRun, waitUntilDone } from "./helpers";

// Issue 30, item 6. The test judge writes q (+0.5 for the answer it sees first, capped at the top of
// the scale) and, asked for logprobs, believes b (+0.5 first). Two answers at q=10 are written 10 in
// both orders; believed below 9.75, each expectation is held to the cell's edge, 9.75: the held scores
// tie exactly, and only the expectations before holding tell the answers apart.

describe("a tie of held expected scores is decided by the unheld expectation", () => {
  it("two unsure top scores: the answer the judge believed more in wins, reported as expected-unheld, kept in D1 and the object", async () => {
    const key = await newKey("unheld-tie");
    const tag = uniqueTag("unheld");
    const id = await postEvaluation(key, {
      question: `Explain a stack. [tag:${tag}]`,
      maxScore: 10,
      answers: [
        // believed 9.7 first, 9.2 second: mean 9.45
        { id: "firm", text: "q=10 b=9.2 LIFO, push and pop at the top" },
        // believed 9.5 first, 9.0 second: mean 9.25
        { id: "vague", text: "q=10 b=9.0 something about a pile" },
      ],
    });
    await waitUntilDone(id, key);
    const r = await request("GET", `/v1/evaluations/${id}`, { key });
    const result = r.json as Evaluation;
    expect(result.status).toBe("completed");
    expect((await judgeLog(tag)).length).toBe(2);

    const [m] = result.matches;
    for (const c of m.calls) expect(c.scores).toEqual([10, 10]);
    // the scores shown stay in the written score's cell, and tie
    for (const c of m.calls) expect(c.expected).toEqual([9.75, 9.75]);
    expect([m.scoreA, m.scoreB]).toEqual([9.75, 9.75]);
    // the expectations before holding come with each call, in its order
    for (const c of m.calls) {
      const believed = (who: string, first: boolean) => (who === "firm" ? 9.2 : 9) + (first ? 0.5 : 0);
      expect(c.unheld![0]).toBeCloseTo(believed(c.order[0], true), 6);
      expect(c.unheld![1]).toBeCloseTo(believed(c.order[1], false), 6);
    }
    // decided by what the judge believed, whichever the pair's second answer was
    expect(m.winner).toBe("firm");
    expect(m.tie).toBe("expected-unheld");
    expect(result.champion).toBe("firm");
    // still a match to look at: both answers carry the tie as a review reason
    for (const a of result.answers) expect(a.review!.reasons).toContain("tie");

    // D1 keeps the column; the object keeps it in its results, and a replay of them decides the same
    const rows = await env.DB.prepare(
      "SELECT c.value ->> '$.unheld' AS unheld FROM matches, json_each(matches.calls) c WHERE evaluation_id = ? ORDER BY idx, c.key",
    )
      .bind(id)
      .all<{ unheld: string | null }>();
    expect(rows.results.map((x) => JSON.parse(x.unheld!))).toEqual(m.calls.map((c) => c.unheld));
    const { input, results } = await storedRun(id);
    // in the order they came back, which is either
    expect([...results].sort((x, y) => x.call - y.call).map((x) => x.unheld)).toEqual(m.calls.map((c) => c.unheld));
    const replayed = replay(input, results) as KnockoutState;
    expect(replayed.matches[0].winner).toBe("firm");
    expect(replayed.matches[0].tie).toBe("expected-unheld");
    // results recorded before the column existed (unheld null) replay as they were played: by position
    const old = replay(
      input,
      results.map((x) => ({ ...x, unheld: null })),
    ) as KnockoutState;
    expect(old.matches[0].winner).toBe(old.matches[0].b);
    expect(old.matches[0].tie).toBe("position");
  });
});
