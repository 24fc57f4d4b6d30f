// Pearson split two ways, each group's coefficient pooling its answers over all questions:
// - by elimination round: answers that lost their first match against the rest (later losers and the
//   champions);
// - by times graded, the seed paper's Table 2 ("answers graded once versus multiple times"): an answer
//   judged in one match against those judged in several.
// The paper treats the two as the same ("the answers which got eliminated on the first round ... got
// only one pairwise comparison"), but they differ: an answer with the bye in round 1 that loses in
// round 2 was eliminated in a later round and graded once (on WMT zh-en the difference was -0.083 by
// elimination round, -0.127 by times graded). Both asks whether more comparisons give better scores.

import { pearson } from "./correlation";
import { humanScores, judgeScores, type ScoredItem } from "./items";

export interface RoundGroup {
  answers: number;
  pearson: number | null;
}

export interface RoundCount extends RoundGroup {
  /** 1-based elimination round, or null for the champions. */
  round: number | null;
}

export interface RoundSplit {
  /** Answers eliminated in round 1 (one match each). */
  firstRound: RoundGroup;
  /** Answers eliminated in round 2 or later, plus each question's champion. */
  laterRounds: RoundGroup;
  /** laterRounds.pearson - firstRound.pearson, the paper's "Difference" row; null if either is. */
  difference: number | null;
  /** Every round on its own, ascending, champions last. */
  perRound: RoundCount[];
  /** Scored answers without round information (another method's items mixed in); in no group. */
  answersWithoutRound: number;
}

export function isFirstRoundLoser(item: ScoredItem): boolean {
  return item.eliminatedInRound === 1;
}

function roundGroup(items: readonly ScoredItem[]): RoundGroup {
  return { answers: items.length, pearson: pearson(judgeScores(items), humanScores(items)) };
}

/** The first-round/later-rounds split, or null when no answer carries round information. */
export function splitByRound(items: readonly ScoredItem[]): RoundSplit | null {
  const withRound = items.filter((item) => item.eliminatedInRound !== undefined);
  if (withRound.length === 0) return null;

  const firstRound = roundGroup(withRound.filter(isFirstRoundLoser));
  const laterRounds = roundGroup(withRound.filter((item) => !isFirstRoundLoser(item)));

  const byRound = new Map<number | null, ScoredItem[]>();
  for (const item of withRound) {
    const round = item.eliminatedInRound ?? null;
    const group = byRound.get(round);
    if (group) group.push(item);
    else byRound.set(round, [item]);
  }
  const rounds = [...byRound.keys()].sort((a, b) => (a ?? Infinity) - (b ?? Infinity));

  return {
    firstRound,
    laterRounds,
    difference: firstRound.pearson === null || laterRounds.pearson === null ? null : laterRounds.pearson - firstRound.pearson,
    perRound: rounds.map((round) => ({ round, ...roundGroup(byRound.get(round)!) })),
    answersWithoutRound: items.length - withRound.length,
  };
}

export interface GradedSplit {
  /** Answers graded in one match. */
  once: RoundGroup;
  /** Answers graded in two or more matches. */
  severalTimes: RoundGroup;
  /** severalTimes.pearson - once.pearson (the paper's Table 2 "Difference"); null if either is. */
  difference: number | null;
  /** Scored answers without a count (another method's items mixed in); in neither group. */
  answersWithoutCount: number;
}

export function isGradedOnce(item: ScoredItem): boolean {
  return item.timesGraded === 1;
}

/** The paper's Table 2 split, by how many times an answer was graded; null when no answer carries the count. */
export function splitByTimesGraded(items: readonly ScoredItem[]): GradedSplit | null {
  const counted = items.filter((item) => item.timesGraded !== undefined && item.timesGraded > 0);
  if (counted.length === 0) return null;
  const once = roundGroup(counted.filter(isGradedOnce));
  const severalTimes = roundGroup(counted.filter((item) => !isGradedOnce(item)));
  return {
    once,
    severalTimes,
    difference: once.pearson === null || severalTimes.pearson === null ? null : severalTimes.pearson - once.pearson,
    answersWithoutCount: items.length - counted.length,
  };
}
