import { mean } from "./match";
import type { Match } from "./types";

/**
 * A match the judge could not split (tie "position": written, expected and unheld scores all equal)
 * under the tie rule "record" (types.ts TieBreak): the answer whose match scores in its earlier rounds
 * average higher advances, since the paper's final score is that average and the final ranking already
 * places it higher. Equal records, or a round-1 match (no record yet), keep the paper's rule: the
 * second answer advances. Pure: `matches` are the tournament's, and a match's earlier rounds are always
 * settled when it is (a round opens, or a bracket match, only once its feeders are decided), so a
 * replay of the same calls decides the same way.
 */
export function breakTie(m: Match, matches: readonly Match[]): Match {
  if (m.tie !== "position") return m;
  const a = recordBefore(m.a, m.round, matches);
  const b = recordBefore(m.b, m.round, matches);
  if (a === null || b === null || a === b) return m;
  return { ...m, winner: a > b ? m.a : m.b, tie: "record" };
}

/** The mean of an answer's match scores in the knockout's matches before `round` (extra ones aside); null without any. */
export function recordBefore(id: string, round: number, matches: readonly Match[]): number | null {
  const scores: number[] = [];
  for (const m of matches) {
    if (m.extra || m.round >= round || m.winner === null) continue;
    if (m.a === id) scores.push(m.scoreA!);
    else if (m.b === id) scores.push(m.scoreB!);
  }
  return scores.length ? mean(scores) : null;
}
