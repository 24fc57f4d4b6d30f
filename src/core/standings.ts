import { mean } from "./knockout";
import type { KnockoutState, Standing } from "./types";

/**
 * Every answer's final score (the mean of its match scores), the round it was knocked out in, and its
 * rank. Ranks order by score; equal scores are split by how far the answer got (the champion first),
 * and answers equal on both share a rank (1, 2, 2, 4).
 */
export function standings(state: KnockoutState): Standing[] {
  const scores = new Map<string, number[]>(state.ids.map((id) => [id, []]));
  const out = new Map<string, number | null>(state.ids.map((id) => [id, null]));
  for (const m of state.matches) {
    if (m.winner === null) continue;
    scores.get(m.a)!.push(m.scoreA!);
    scores.get(m.b)!.push(m.scoreB!);
    out.set(m.winner === m.a ? m.b : m.a, m.round);
  }
  const rows = state.ids.map((id) => {
    const s = scores.get(id)!;
    return { id, score: s.length ? mean(s) : null, scores: s, eliminatedInRound: out.get(id)! };
  });
  return rankRows(rows, (r) => [r.score ?? -Infinity, r.eliminatedInRound ?? Infinity]);
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
