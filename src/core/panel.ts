import { pearson } from "../metrics/correlation";
import type { MatchView, Outcome } from "./outcome";

// A panel of judges in "cycle" mode (issue 30 item 3; PoLL): each match goes to the next judge of the
// panel in turn, so the panel costs what one judge does. Both orders of a debiased match go to the same
// judge, so a match's two calls compare one judge with itself, as the position figures assume. Pure.

/** The judge (model) of the panel that plays match `match`: the panel's judges in turn, by match index. */
export function panelJudge(panel: readonly string[], match: number): string {
  if (panel.length === 0) throw new RangeError("a panel needs a judge");
  if (!Number.isSafeInteger(match) || match < 0) throw new RangeError(`match must be a non-negative integer, got ${match}`);
  return panel[match % panel.length];
}

/** The matches each judge of the panel played (by its place in the outcome: a match's index). */
export function matchesByJudge(panel: readonly string[], matches: readonly MatchView[]): Map<string, MatchView[]> {
  const out = new Map(panel.map((model) => [model, [] as MatchView[]]));
  for (const [index, m] of matches.entries()) out.get(panelJudge(panel, index))?.push(m);
  return out;
}

/**
 * Each judge's agreement with the panel: over the answers the judge scored, Pearson's r between the
 * mean of the match scores it gave each answer and the answer's score from the whole panel. Null with
 * fewer than three answers, or scores without spread. A judge that disagrees with the rest of its
 * panel is the one to look at; with two judges both agree or disagree alike.
 */
export function panelAgreement(
  panel: readonly string[],
  outcome: Pick<Outcome, "answers" | "matches">,
): { model: string; matches: number; answers: number; pearson: number | null }[] {
  const panelScore = new Map(outcome.answers.flatMap((a) => (a.score === null ? [] : [[a.id, a.score] as const])));
  return [...matchesByJudge(panel, outcome.matches)].map(([model, matches]) => {
    const given = new Map<string, number[]>();
    const add = (id: string | null, score: number | null) => {
      if (id === null || score === null) return;
      given.set(id, [...(given.get(id) ?? []), score]);
    };
    for (const m of matches) {
      add(m.a, m.scoreA);
      add(m.b, m.scoreB);
    }
    const ids = [...given.keys()].filter((id) => panelScore.has(id));
    const mine = ids.map((id) => mean(given.get(id)!));
    const theirs = ids.map((id) => panelScore.get(id)!);
    return { model, matches: matches.length, answers: ids.length, pearson: ids.length >= 3 ? round3(pearson(mine, theirs)) : null };
  });
}

function mean(xs: readonly number[]): number {
  return xs.reduce((s, x) => s + x, 0) / xs.length;
}

function round3(x: number | null): number | null {
  return x === null ? null : Math.round(x * 1000) / 1000;
}
