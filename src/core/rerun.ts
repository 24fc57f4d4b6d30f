import type { MatchView, Outcome } from "./outcome";

/**
 * How a rerun's matches compare with its original's, match by index (a match's index is its place in
 * the tournament, the same in both when they were played alike). A match differs when it met other
 * answers, chose another winner or gave other scores; a match only one of them has differs too, so
 * `matches` counts the longer list. Pure.
 */
export function differingMatches(original: Outcome, rerun: Outcome): { matches: number; differing: number } {
  const matches = Math.max(original.matches.length, rerun.matches.length);
  let differing = 0;
  for (let i = 0; i < matches; i++) {
    const a = original.matches[i];
    const b = rerun.matches[i];
    if (!a || !b || !sameMatch(a, b)) differing++;
  }
  return { matches, differing };
}

function sameMatch(a: MatchView, b: MatchView): boolean {
  return a.a === b.a && a.b === b.b && a.winner === b.winner && a.scoreA === b.scoreA && a.scoreB === b.scoreB;
}
