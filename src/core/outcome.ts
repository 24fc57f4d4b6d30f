import { standings } from "./standings";
import type { KnockoutState } from "./types";

// What an evaluation has produced, as the API shows it: the same shape from every method, whether it is
// read from the running tournament or from D1.

export interface CallView {
  order: string[];
  scores: number[];
  raw: string;
}

/**
 * A match of the result. Pairwise methods: two answers, `winner` null while undecided, or on a draw
 * once both scores are set (methods without elimination do not break ties). Individual judging: one
 * "match" per answer with `b` and `scoreB` null and `winner` null.
 */
export interface MatchView {
  round: number;
  a: string;
  b: string | null;
  scoreA: number | null;
  scoreB: number | null;
  winner: string | null;
  calls: CallView[];
}

export interface AnswerView {
  id: string;
  score: number | null;
  scores: number[];
  eliminatedInRound: number | null;
  rank: number;
  /** Who wrote the answer, when the request named it. */
  examinee?: string;
  /** Round-robin: the Bradley-Terry strength (geometric mean 1 over the question's answers). */
  strength?: number;
  /** Rubric judging: the judge's score per criterion, by criterion name. */
  criteria?: Record<string, number>;
}

/** Everything an evaluation has produced so far; the same shape whether read from the DO or from D1. */
export interface Outcome {
  champion: string | null;
  answers: AnswerView[];
  matches: MatchView[];
}

/** The outcome of a knockout so far; `raws` holds the judge's text per call, keyed "match.call". */
/** The fields of a match that every view and every stored row carries, from any shape that has them. */
export function matchResult(m: Pick<MatchView, "round" | "a" | "b" | "scoreA" | "scoreB" | "winner">) {
  return { round: m.round, a: m.a, b: m.b, scoreA: m.scoreA, scoreB: m.scoreB, winner: m.winner };
}

export function knockoutOutcome(state: KnockoutState, raws: ReadonlyMap<string, string>): Outcome {
  return {
    champion: state.champion,
    answers: standings(state),
    matches: state.matches.map((m) => ({
      ...matchResult(m),
      calls: m.calls.flatMap((c, i) =>
        c.scores ? [{ order: [...c.order], scores: [...c.scores], raw: raws.get(`${m.index}.${i}`) ?? "" }] : [],
      ),
    })),
  };
}
