import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { gateIdle, newKey, postEvaluation, request, until, uniqueTag, waitUntilDone, releaseJudge } from "./helpers";

// `judgeDiagnostics` re-derived here, from D1's own rows (matches with their calls, answers), by a count
// written apart from src/core/diagnostics.ts: the service's figures must be what its recorded calls say.
// The test judge writes q, plus 0.5 for the answer it sees first.

/** Five answers: the two best are the longest, two of equal quality tie, and one has characters beyond UTF-16's plane. */
function fiveAnswers(prefix: string) {
  const pad = (n: number) => " lorem".repeat(n);
  return [
    { id: `${prefix}1`, text: `q=8 LIFO.${pad(60)}` },
    { id: `${prefix}2`, text: `q=7 LIFO.${pad(45)}` },
    { id: `${prefix}3`, text: `q=4 LIFO.${pad(8)}` },
    { id: `${prefix}4`, text: `q=4 LIFO.${pad(8)}` },
    { id: `${prefix}5`, text: `q=2 LIFO 📚📚📚.${pad(22)}` },
  ];
}

interface CallRow {
  evaluation: string;
  idx: number;
  order: string[];
  scores: number[];
  expected: number[] | null;
  parseRetried: boolean;
}

/** The figures as D1's rows give them, counted from scratch for the evaluations named. */
async function rederived(ids: string[]) {
  const marks = ids.map(() => "?").join(",");
  const calls = (
    await env.DB.prepare(
      `SELECT evaluation_id AS evaluation, idx, c.value ->> '$.order' AS "order", c.value ->> '$.scores' AS scores,
              c.value ->> '$.expected' AS expected, c.value ->> '$.parseRetried' AS parseRetried
       FROM matches, json_each(matches.calls) c WHERE evaluation_id IN (${marks}) ORDER BY evaluation_id, idx, c.key`,
    )
      .bind(...ids)
      .all<Record<string, unknown>>()
  ).results.map(
    (c): CallRow => ({
      evaluation: String(c.evaluation),
      idx: Number(c.idx),
      order: JSON.parse(String(c.order)),
      scores: JSON.parse(String(c.scores)),
      expected: c.expected === null ? null : JSON.parse(String(c.expected)),
      parseRetried: Boolean(c.parseRetried),
    }),
  );
  const matches = (
    await env.DB.prepare(
      `SELECT evaluation_id AS evaluation, idx, a, b, score_a AS scoreA, score_b AS scoreB, tie, extra FROM matches WHERE evaluation_id IN (${marks})`,
    )
      .bind(...ids)
      .all<{
        evaluation: string;
        idx: number;
        a: string;
        b: string | null;
        scoreA: number;
        scoreB: number;
        tie: string | null;
        extra: number;
      }>()
  ).results;
  const texts = (
    await env.DB.prepare(`SELECT evaluation_id AS evaluation, answer_id AS id, text FROM answers WHERE evaluation_id IN (${marks})`)
      .bind(...ids)
      .all<{ evaluation: string; id: string; text: string }>()
  ).results;
  const length = new Map(texts.map((t) => [`${t.evaluation}/${t.id}`, Array.from(t.text).length]));
  const callsOf = (m: { evaluation: string; idx: number }) => calls.filter((c) => c.evaluation === m.evaluation && c.idx === m.idx);
  const decide = (c: CallRow) => c.expected ?? c.scores;

  let first = 0;
  let firstOf = 0;
  let disagree = 0;
  let debiased = 0;
  let longer = 0;
  let longerOf = 0;
  let tied = 0;
  let byPosition = 0;
  let played = 0;
  for (const m of matches) {
    const cs = callsOf(m);
    if (cs.length === 2 && cs[0].order[0] === cs[1].order[1]) {
      debiased++;
      const won = cs.map((c) => (decide(c)[0] === decide(c)[1] ? null : decide(c)[0] > decide(c)[1] ? c.order[0] : c.order[1]));
      for (const [i, w] of won.entries())
        if (w !== null) {
          firstOf++;
          if (w === cs[i].order[0]) first++;
        }
      if (won[0] !== null && won[1] !== null && won[0] !== won[1]) disagree++;
    }
    if (m.scoreA !== m.scoreB) {
      const la = length.get(`${m.evaluation}/${m.a}`)!;
      const lb = length.get(`${m.evaluation}/${m.b}`)!;
      if (Math.max(la, lb) >= 1.1 * Math.min(la, lb) - 1e-9) {
        longerOf++;
        if (m.scoreA > m.scoreB === la > lb) longer++;
      }
    }
    if (!m.extra) {
      played++;
      const written = (id: string) => cs.reduce((s, c) => s + c.scores[c.order.indexOf(id)], 0) / cs.length;
      if (written(m.a) === written(m.b!)) {
        tied++;
        if (m.tie === "position") byPosition++;
      }
    }
  }
  return {
    firstPositionWins: { count: first, of: firstOf },
    ordersDisagree: { count: disagree, of: debiased },
    longerWins: { count: longer, of: longerOf },
    parseRetried: { count: calls.filter((c) => c.parseRetried).length, of: calls.length },
    ties: { count: tied, of: played, byPosition },
  };
}

describe("judgeDiagnostics", () => {
  it("are what the recorded calls say, on the evaluation read from D1", async () => {
    const key = await newKey("diag");
    const tag = uniqueTag("diag");
    const id = await postEvaluation(key, {
      question: `Explain a stack. [tag:${tag}]`,
      method: "round-robin",
      debias: true,
      maxScore: 10,
      answers: fiveAnswers("s"),
    });
    const result = await waitUntilDone(id, key);
    expect(result.status).toBe("completed");
    const d = result.judgeDiagnostics;
    const counted = await rederived([id]);
    for (const [figure, counts] of Object.entries(counted)) {
      expect(d[figure], figure).toMatchObject(counts);
      expect(d[figure].share, figure).toBeCloseTo(counts.count / counts.of, 12);
      expect(d[figure].interval[0]).toBeLessThanOrEqual(d[figure].share);
      expect(d[figure].interval[1]).toBeGreaterThanOrEqual(d[figure].share);
    }
    // and what the judge's design makes them: the first shown wins where qualities differ by its order
    // (9 of 18 calls) and always where they tie (2 of 2); the tied pair is the one whose orders disagree;
    // the longer answer wins 7 of the 9 decided pairs (only q=2's 📚 answer, the longer, loses to a q=4)
    expect(d.firstPositionWins).toMatchObject({ count: 11, of: 20, anchor: { value: 0.526 } });
    expect(d.ordersDisagree).toMatchObject({ count: 1, of: 10 });
    expect(d.longerWins).toMatchObject({ count: 7, of: 9, lengthRatio: 1.1 });
    expect(d.parseRetried).toMatchObject({ count: 0, of: 20 });
    // round-robin breaks no tie: a draw stays one, and none is decided by position
    expect(d.ties).toMatchObject({ count: 1, of: 10, byPosition: 0 });
    // 7 of 9 is above 0.7, but 9 matches leave the interval reaching below a half: no warning yet
    expect(d.warnings).toEqual([]);
  });

  it("are on a running evaluation's result, from the calls recorded so far", async () => {
    const key = await newKey("diag-live");
    const tag = uniqueTag("diag-live");
    const id = await postEvaluation(key, {
      question: `Explain a stack. [tag:${tag}] [hold-after:6]`,
      method: "round-robin",
      debias: true,
      maxScore: 10,
      answers: fiveAnswers("r"),
    });
    try {
      const running = await until("six calls recorded", async () => {
        const r = await request("GET", `/v1/evaluations/${id}`, { key });
        return r.json.status === "running" && r.json.usage.judgeCalls === 6 ? r.json : null;
      });
      type Shown = { scoreA: number | null; calls: { order: string[]; scores: number[] }[] };
      const matches: Shown[] = running.matches;
      const calls = matches.flatMap((m) => m.calls);
      const d = running.judgeDiagnostics;
      expect(calls).toHaveLength(6);
      expect(d.parseRetried).toMatchObject({ count: 0, of: 6 });
      // a call counts for a position once its match has both orders in
      const both = matches.filter((m) => m.calls.length === 2);
      const first = both.flatMap((m) => m.calls).filter((c) => c.scores[0] > c.scores[1]).length;
      const decided = both.flatMap((m) => m.calls).filter((c) => c.scores[0] !== c.scores[1]).length;
      expect(d.firstPositionWins).toMatchObject({ count: first, of: decided });
      expect(d.ties.of).toBe(matches.filter((m) => m.scoreA !== null).length);
    } finally {
      await releaseJudge(tag);
    }
    await waitUntilDone(id, key);
  });

  it("count the calls whose reply had to be asked for again, and warn of them", async () => {
    const key = await newKey("diag-parse");
    const id = await postEvaluation(key, {
      question: `Explain a stack. [tag:${uniqueTag("diag-parse")}] [parse-once]`,
      maxScore: 10,
      answers: fiveAnswers("p").slice(0, 2),
    });
    const done = await waitUntilDone(id, key);
    expect(done.judgeDiagnostics.parseRetried).toMatchObject({ count: 2, of: 2, share: 1 });
    expect(done.judgeDiagnostics.parseRetried).toMatchObject(await rederived([id]).then((c) => c.parseRetried));
    expect(done.judgeDiagnostics.warnings.map((w: { figure: string }) => w.figure)).toEqual(["parseRetried"]);
  });

  it("are pooled over a batch's questions", async () => {
    const key = await newKey("diag-batch");
    const tag = uniqueTag("diag-batch");
    const created = await request("POST", "/v1/batches", {
      key,
      body: {
        defaults: { method: "round-robin", debias: true, maxScore: 10 },
        items: [1, 2].map((k) => ({ question: `Question ${k}. [tag:${tag}]`, answers: fiveAnswers(`q${k}-`) })),
      },
    });
    expect(created.status).toBe(202);
    const batch = await until(
      "the batch to end",
      async () => {
        const r = await request("GET", `/v1/batches/${created.json.id}`, { key });
        return r.json.status !== "running" ? r.json : null;
      },
      30_000,
    );
    expect(batch.status).toBe("completed");
    const counted = await rederived(batch.evaluations);
    for (const [figure, counts] of Object.entries(counted)) expect(batch.judgeDiagnostics[figure], figure).toMatchObject(counts);
    expect(batch.judgeDiagnostics.firstPositionWins).toMatchObject({ count: 22, of: 40 });
    // 14 of 18 decided matches won by the longer answer, and now the interval clears a half
    expect(batch.judgeDiagnostics.longerWins).toMatchObject({ count: 14, of: 18 });
    expect(batch.judgeDiagnostics.warnings.map((w: { figure: string }) => w.figure)).toEqual(["longerWins"]);
    await gateIdle();
  });
});
