// A yardstick for the review flags (issue 26): how well a ranking fitted to the true errors does, when
// it sees only what the recorded calls show. Each answer is described by four features (how many
// judgments, its score, how far below its question's top score and how far from its question's
// median); its predicted error is the mean true error of its 60 nearest answers, by those features, in
// the other seeds' runs; each question's ceil(0.15 n) highest predictions are flagged, as the service
// flags. It is fitted twice: to the error itself (which favours the error ratio) and to being among the
// 20% worst (which favours the share). The other seeds grade the same questions under other noise,
// which flatters the fit. It is not a proof of what no rule can reach, only the best fit found: other
// features (the judgments' spread, the review probability) fitted no better. The question's size is
// left out: it names a Mohler question nearly alone, and with it the fit learns each question's
// grades.

import { worstCut } from "./review.mjs";

const NEIGHBOURS = 60;

/** Per judged answer of one seed's runs: its question, its true error (a share of the scale) and features. */
export function observedAnswers(runs, human) {
  const out = [];
  for (const [question, { q, run }] of runs.entries()) {
    const scores = run.scores instanceof Map ? run.scores : new Map(run.scores);
    const judgments = new Map();
    for (const m of run.matches) for (const c of m.calls) for (const id of c.order) judgments.set(id, (judgments.get(id) ?? 0) + 1);
    const sorted = [...scores.values()].sort((x, y) => x - y);
    const median = sorted[Math.floor(sorted.length / 2)];
    const top = sorted[sorted.length - 1];
    const M = q.maxScore;
    for (const a of q.answers) {
      const s = scores.get(a.id);
      if (s === undefined) continue;
      const k = judgments.get(a.id) ?? 0;
      out.push({ question, error: Math.abs(s - human(q, a)) / M, x: [Math.min(k, 8) / 8, s / M, (s - median) / M, (top - s) / M] });
    }
  }
  return out;
}

/** The mean of `target` over the NEIGHBOURS training rows nearest to x (features scaled by `scale`). */
function nearestMean(x, train, scale, target) {
  const dist = new Float64Array(NEIGHBOURS).fill(Infinity);
  const value = new Float64Array(NEIGHBOURS);
  for (const t of train) {
    let d = 0;
    for (let i = 0; i < x.length; i++) d += ((t.x[i] - x[i]) / scale[i]) ** 2;
    if (d >= dist[NEIGHBOURS - 1]) continue;
    let j = NEIGHBOURS - 1;
    for (; j > 0 && dist[j - 1] > d; j--) {
      dist[j] = dist[j - 1];
      value[j] = value[j - 1];
    }
    dist[j] = d;
    value[j] = target(t);
  }
  return value.reduce((a, b) => a + b, 0) / NEIGHBOURS;
}

/**
 * Leave-one-seed-out: each seed's answers ranked by the fit to the other seeds', flagged per question,
 * then the review measures. `seeds`: one `observedAnswers` list per seed. Returns, for each fit, the
 * mean over seeds of the share of flags among the 20% worst and the flagged / unflagged error ratio.
 */
export function fittedRanking(seeds, share = 0.15) {
  for (const rows of seeds) {
    const cut = worstCut(rows);
    for (const r of rows) r.worst = r.error >= cut ? 1 : 0;
  }
  const pooled = seeds.flat();
  const scale = pooled[0].x.map((_, i) => {
    const mean = pooled.reduce((s, r) => s + r.x[i], 0) / pooled.length;
    return Math.sqrt(pooled.reduce((s, r) => s + (r.x[i] - mean) ** 2, 0) / pooled.length) || 1;
  });
  const fits = { error: (t) => t.error, worst: (t) => t.worst };
  const out = {};
  for (const [name, target] of Object.entries(fits)) {
    const cells = seeds.map((rows, s) => {
      const train = seeds.filter((_, o) => o !== s).flat();
      const byQuestion = new Map();
      for (const r of rows)
        byQuestion.set(r.question, [...(byQuestion.get(r.question) ?? []), { r, p: nearestMean(r.x, train, scale, target) }]);
      const flagged = new Set();
      for (const list of byQuestion.values()) {
        const slots = Math.ceil(share * list.length - 1e-9);
        for (const { r } of list.sort((a, b) => b.p - a.p).slice(0, slots)) flagged.add(r);
      }
      const mae = (xs) => xs.reduce((sum, r) => sum + r.error, 0) / xs.length;
      const flags = rows.filter((r) => flagged.has(r));
      return {
        amongWorst: flags.filter((r) => r.worst).length / flags.length,
        ratio: mae(flags) / mae(rows.filter((r) => !flagged.has(r))),
      };
    });
    const mean = (f) => cells.reduce((s, c) => s + f(c), 0) / cells.length;
    out[name] = { amongWorst: mean((c) => c.amongWorst), ratio: mean((c) => c.ratio) };
  }
  return out;
}
