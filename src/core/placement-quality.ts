import { pearson } from "../metrics/correlation";
import { answerConfidence } from "./confidence";
import type { MatchView } from "./outcome";
import type { QualityQuestion } from "./quality";

/**
 * What the quality bench measures of a placement of extra calls (issue 26 item 3). Pure: the runs come
 * from `runQuestion`, the long-run means from the same judge.
 *
 * The judge's long-run mean for an answer is what its score tends to with calls without end: the mean
 * of its judgments over every prompt it can be shown in, every other answer in both orders (a
 * round-robin's score, read as the knockout reads its scores). A knockout's score is a mean over some
 * of those prompts; its 95% interval (src/core/confidence.ts) is meant to cover that mean. The answers
 * that lost their first match are the test: their one match is the one they lost, so their score is
 * pulled below the long-run mean, and only more matches pull it back.
 */

export interface PlacementRun {
  question: QualityQuestion;
  /** The knockout's recorded matches, extra ones marked `extra`. */
  matches: readonly MatchView[];
  /** The knockout's score per answer. */
  scores: ReadonlyMap<string, number>;
  /** The judge's long-run mean per answer. */
  longRun: ReadonlyMap<string, number>;
  /** The grid the interval's rounding floor is taken from (the template's score step). */
  step: number;
}

export interface PlacementMeasures {
  /** Pooled over every answer, knockout score against human score. */
  pearson: number | null;
  answers: number;
  /** Answers that lost a first-round match of the knockout. */
  firstRoundLosers: number;
  /** Of them, those that played at least one extra match. */
  losersWithExtra: number;
  /** The share of first-round losers whose interval covers the long-run mean. */
  losersCovered: number;
  /** Their mean of score minus long-run mean, as a share of the scale (negative: scored too low). */
  losersShortfall: number;
  /** The share of all answers whose interval covers the long-run mean. */
  allCovered: number;
}

/** The answers that lost a first-round (not extra) match. */
export function firstRoundLosers(matches: readonly Pick<MatchView, "round" | "a" | "b" | "winner" | "extra">[]): Set<string> {
  const out = new Set<string>();
  for (const m of matches) {
    if (m.extra || m.round !== 1 || m.b === null || m.winner === null) continue;
    out.add(m.winner === m.a ? m.b : m.a);
  }
  return out;
}

export function placementMeasures(runs: readonly PlacementRun[]): PlacementMeasures {
  const judged: number[] = [];
  const human: number[] = [];
  let losers = 0;
  let withExtra = 0;
  let losersIn = 0;
  let shortfall = 0;
  let all = 0;
  let allIn = 0;
  for (const r of runs) {
    const ids = r.question.answers.map((a) => a.id);
    const confidence = answerConfidence(ids, r.matches, { maxScore: r.question.maxScore, step: r.step });
    const lost = firstRoundLosers(r.matches);
    const extraPlayers = new Set(r.matches.filter((m) => m.extra).flatMap((m) => [m.a, m.b]));
    for (const a of r.question.answers) {
      const score = r.scores.get(a.id);
      if (score === undefined) continue;
      judged.push(score);
      human.push(a.human);
      const mean = r.longRun.get(a.id);
      const interval = confidence.get(a.id)?.interval;
      if (mean === undefined || !interval) continue;
      const covered = interval[0] <= mean && mean <= interval[1];
      all++;
      if (covered) allIn++;
      if (!lost.has(a.id)) continue;
      losers++;
      if (extraPlayers.has(a.id)) withExtra++;
      if (covered) losersIn++;
      shortfall += (score - mean) / r.question.maxScore;
    }
  }
  return {
    pearson: pearson(judged, human),
    answers: judged.length,
    firstRoundLosers: losers,
    losersWithExtra: withExtra,
    losersCovered: losers ? losersIn / losers : Number.NaN,
    losersShortfall: losers ? shortfall / losers : Number.NaN,
    allCovered: all ? allIn / all : Number.NaN,
  };
}
