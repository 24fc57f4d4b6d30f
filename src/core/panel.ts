import { pearson } from "../metrics/correlation";
import { decidingScores } from "./match";
import type { CallView, MatchView, Outcome } from "./outcome";
import type { PanelVote, PanelVoteRecord } from "./types";

// A panel of judges (issue 30 item 3; PoLL). "cycle": each match goes to the next judge of the panel
// in turn, so the panel costs what one judge does; both orders of a debiased match go to the same
// judge, so a match's two calls compare one judge with itself, as the position figures assume (and when
// that judge is down, the whole match moves: ./match-judges.ts). "all":
// every call goes to every judge and their scores are averaged, at the panel's size times the cost.
// Pure.

export type { PanelVote, PanelVoteRecord };

/** The judge (model) of the panel that plays match `match`: the panel's judges in turn, by match index. */
export function panelJudge(panel: readonly string[], match: number): string {
  if (panel.length === 0) throw new RangeError("a panel needs a judge");
  if (!Number.isSafeInteger(match) || match < 0) throw new RangeError(`match must be a non-negative integer, got ${match}`);
  return panel[match % panel.length];
}

/** Whether a vote is a judge's answer (not the record of a judge that did not answer). */
export function answered(v: PanelVoteRecord): v is PanelVote {
  return !("absent" in v);
}

/**
 * "all": one call's scores from the judges that answered it, averaged position by position. The
 * written scores are the mean of the written ones; where any judge gave expected scores, the expected
 * ones are the mean of each judge's deciding scores (its expected, else its written), and so for the
 * unheld ones; the spread only where every judge gave one.
 */
export function combineVotes(votes: readonly Pick<PanelVote, "scores" | "expected" | "unheld" | "spread" | "parseRetried">[]): {
  scores: number[];
  expected: number[] | null;
  unheld: number[] | null;
  spread: number[] | null;
  parseRetried: boolean;
} {
  if (votes.length === 0) throw new RangeError("a panel's call needs a judge's answer");
  const width = votes[0].scores.length;
  if (votes.some((v) => v.scores.length !== width)) throw new RangeError("the judges' scores must score the same answers");
  const meanOf = (pick: (v: (typeof votes)[number]) => readonly number[]) =>
    Array.from({ length: width }, (_, i) => votes.reduce((s, v) => s + pick(v)[i], 0) / votes.length);
  const anyExpected = votes.some((v) => v.expected);
  const anyUnheld = votes.some((v) => v.unheld);
  return {
    scores: meanOf((v) => v.scores),
    expected: anyExpected ? meanOf((v) => v.expected ?? v.scores) : null,
    unheld: anyUnheld ? meanOf((v) => v.unheld ?? v.expected ?? v.scores) : null,
    spread: votes.every((v) => v.spread) ? meanOf((v) => v.spread!) : null,
    parseRetried: votes.some((v) => v.parseRetried),
  };
}

/**
 * The matches each judge of the panel played, as that judge alone judged them. "cycle": the matches
 * its calls were asked of (a call's `judge`, else by turn, as calls recorded before it was kept were
 * played). "all": every match it answered a call of, rebuilt from its own votes: its scores, and the
 * match's scores and winner by them.
 */
export function matchesByJudge(
  panel: readonly string[],
  matches: readonly MatchView[],
  mode: PanelMode = "cycle",
): Map<string, MatchView[]> {
  const out = new Map(panel.map((model) => [model, [] as MatchView[]]));
  for (const [index, m] of matches.entries()) {
    if (mode === "cycle") {
      out.get(m.calls[0]?.judge ?? panelJudge(panel, index))?.push(m);
      continue;
    }
    for (const judge of panel) {
      const calls: CallView[] = m.calls.flatMap((c) => {
        const vote = c.votes?.find((v) => v.judge === judge);
        return vote && answered(vote)
          ? [{ ...c, scores: vote.scores, expected: vote.expected ?? null, parseRetried: vote.parseRetried ?? false, votes: undefined }]
          : [];
      });
      if (calls.length > 0) out.get(judge)?.push(ownMatch(m, calls));
    }
  }
  return out;
}

export type PanelMode = "cycle" | "all";

/** A match as one judge's calls score it: each answer's mean deciding score over the calls, the higher wins. */
function ownMatch(m: MatchView, calls: CallView[]): MatchView {
  const scoreOf = (id: string | null) => {
    if (id === null) return null;
    const xs = calls.flatMap((c) => {
      const at = c.order.indexOf(id);
      return at < 0 ? [] : [decidingScores(c)[at]];
    });
    return xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : null;
  };
  const scoreA = scoreOf(m.a);
  const scoreB = scoreOf(m.b);
  const winner = scoreA === null || scoreB === null || scoreA === scoreB ? null : scoreA > scoreB ? m.a : m.b;
  return { round: m.round, a: m.a, b: m.b, scoreA, scoreB, winner, calls, ...(m.extra ? { extra: true } : {}) };
}

export interface JudgeAgreement {
  model: string;
  /** Matches it played (cycle) or answered a call of (all). */
  matches: number;
  /** Answers it scored that the panel scored too. */
  answers: number;
  /** Pearson's r between its mean score of each answer and the panel's; null under three answers or without spread. */
  pearson: number | null;
  /** The mean absolute difference between its mean score of each answer and the panel's, in score points; null with none. */
  meanAbsDiff: number | null;
}

/**
 * Each judge's agreement with the panel: over the answers the judge scored, Pearson's r and the mean
 * absolute difference between the mean of the match scores it gave each answer and the answer's score
 * from the whole panel. A judge that disagrees with the rest of its panel is the one to look at; with
 * two judges both agree or disagree alike.
 */
export function panelAgreement(
  panel: readonly string[],
  outcome: Pick<Outcome, "answers" | "matches">,
  mode: PanelMode = "cycle",
): JudgeAgreement[] {
  const panelScore = new Map(outcome.answers.flatMap((a) => (a.score === null ? [] : [[a.id, a.score] as const])));
  return [...matchesByJudge(panel, outcome.matches, mode)].map(([model, matches]) => {
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
    const gaps = mine.map((x, i) => Math.abs(x - theirs[i]));
    return {
      model,
      matches: matches.length,
      answers: ids.length,
      pearson: ids.length >= 3 ? round3(pearson(mine, theirs)) : null,
      meanAbsDiff: gaps.length ? round3(mean(gaps)) : null,
    };
  });
}

/** "all": the calls each judge did not answer (its judge down, or its calls failing), by judge. */
export function absences(panel: readonly string[], matches: readonly MatchView[]): Map<string, number> {
  const out = new Map(panel.map((model) => [model, 0]));
  for (const m of matches)
    for (const c of m.calls) for (const v of c.votes ?? []) if (!answered(v)) out.set(v.judge, (out.get(v.judge) ?? 0) + 1);
  return out;
}

function mean(xs: readonly number[]): number {
  return xs.reduce((s, x) => s + x, 0) / xs.length;
}

function round3(x: number | null): number | null {
  return x === null ? null : Math.round(x * 1000) / 1000;
}
