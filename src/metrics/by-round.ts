// Pearson split by elimination round, as in the seed paper's Table 2: answers that lost their
// first match were judged once, answers that went further (later losers and the champion) were
// judged several times, so comparing the two groups asks whether more comparisons give better
// scores. Each group's coefficient pools its answers over all questions, as the paper's does.

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
    difference:
      firstRound.pearson === null || laterRounds.pearson === null ? null : laterRounds.pearson - firstRound.pearson,
    perRound: rounds.map((round) => ({ round, ...roundGroup(byRound.get(round)!) })),
    answersWithoutRound: items.length - withRound.length,
  };
}
