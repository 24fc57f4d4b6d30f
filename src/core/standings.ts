import { callNoise } from "./uncertainty";
import { mean } from "./match";
import type { KnockoutState, Standing } from "./types";

/**
 * Every answer's final score (the mean of its match scores, extra matches included; see weightedMean
 * and positionCorrection for adaptive debiasing), the round it was knocked out in, and its
 * rank. Ranks order by score; equal scores are split by how far the answer got (the champion first),
 * and answers equal on both share a rank (1, 2, 2, 4).
 */
export function standings(state: KnockoutState): Standing[] {
  const scores = new Map<string, number[]>(state.ids.map((id) => [id, []]));
  const out = new Map<string, number | null>(state.ids.map((id) => [id, null]));
  const weights = new Map<string, number[]>(state.ids.map((id) => [id, []]));
  const shift = positionCorrection(state);
  for (const m of state.matches) {
    if (m.winner === null) continue;
    const oneOrder = m.adaptive === true && m.calls.length === 1;
    const first = oneOrder ? m.calls[0].order[0] : null;
    scores.get(m.a)!.push(oneOrder ? m.scoreA! + (first === m.a ? -shift : shift) : m.scoreA!);
    scores.get(m.b)!.push(oneOrder ? m.scoreB! + (first === m.b ? -shift : shift) : m.scoreB!);
    weights.get(m.a)!.push(m.calls.length);
    weights.get(m.b)!.push(m.calls.length);
    // an extra match (after the knockout) adds a score and knocks no one out
    if (!m.extra) out.set(m.winner === m.a ? m.b : m.a, m.round);
  }
  const rows = state.ids.map((id) => {
    const s = scores.get(id)!;
    const w = weights.get(id)!;
    return { id, score: s.length ? weightedMean(s, w) : null, scores: s, eliminatedInRound: out.get(id)! };
  });
  return rankRows(rows, (r) => [r.score ?? -Infinity, r.eliminatedInRound ?? Infinity]);
}

/**
 * The mean of an answer's match scores, each weighted by its calls: the mean of its judgments. When all
 * its matches have as many calls (debiased or not, the paper's methods) it is the plain mean of the match
 * scores; adaptive debiasing mixes matches of one and two calls, and a two-call match score is then the
 * surer one (half the variance), so it weighs twice.
 */
function weightedMean(xs: readonly number[], ws: readonly number[]): number {
  if (ws.every((w) => w === ws[0])) return mean(xs);
  let total = 0;
  let weight = 0;
  xs.forEach((x, i) => {
    total += x * ws[i];
    weight += ws[i];
  });
  return total / weight;
}

/**
 * Adaptive debiasing judges a sure match in one order only, so its match scores carry the judge's
 * position bias, which a match judged in both orders cancels. Half the bias, as the evaluation's
 * matches judged in both orders show it (confidence.ts `callNoise`), is taken from the answer shown
 * first and given to the other before such a match score enters the answer's score (the match keeps
 * the scores that decided it). Nothing changes without one-order adaptive matches.
 */
function positionCorrection(state: KnockoutState): number {
  if (!state.matches.some((m) => m.adaptive && m.winner !== null && m.calls.length === 1)) return 0;
  return callNoise(state.ids, state.matches).positionBias / 2;
}

/** Competition ranking ("1224") by a tuple of keys, each higher-is-better, compared in order. */
export function rankRows<T>(rows: T[], keys: (row: T) => number[]): (T & { rank: number })[] {
  const better = (x: T, y: T) => {
    const kx = keys(x);
    const ky = keys(y);
    for (let i = 0; i < kx.length; i++) if (kx[i] !== ky[i]) return kx[i] > ky[i];
    return false;
  };
  return rows.map((row) => ({ ...row, rank: 1 + rows.filter((other) => better(other, row)).length }));
}
