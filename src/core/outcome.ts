import { standings } from "./standings";
import type { KnockoutState, PanelVoteRecord, Tie } from "./types";

// What an evaluation has produced, as the API shows it: the same shape from every method, whether it is
// read from the running tournament or from D1.

export interface CallView {
  order: string[];
  scores: number[];
  raw: string;
  /** The expected scores read from the judge's token probabilities, in the call's order; null without them. */
  expected: number[] | null;
  /** The standard deviation of the judge's distribution behind each expected score; null without them. */
  spread?: number[] | null;
  /** The expected scores before they were held to the written scores' cells; absent without them. */
  unheld?: number[] | null;
  /** The reply was asked for again because an earlier one could not be parsed. */
  parseRetried?: boolean;
  /** The judge endpoint of the pool that answered (its base URL); null for calls recorded before pools. */
  endpoint: string | null;
  /** The model the judge said answered (its reply's `model`); absent when it did not say, or recorded before. */
  model?: string;
  /** The model's revision where the endpoint reports one (`system_fingerprint`); absent otherwise. */
  revision?: string;
  /** The sampling seed the call sent (src/judge/call-seed); absent for calls recorded before seeds. */
  seed?: number;
  /** A panel's judge asked this call (src/core/panel.ts); absent without a panel, and in "all" (see `votes`). */
  judge?: string;
  /** A panel in "all": each judge's answer to this call, averaged into its scores, or why it gave none. */
  votes?: PanelVoteRecord[];
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
  /** How a match its scores alone could not decide was decided (see core/types `Tie`). */
  tie?: Tie;
  /** Both orders judged, and their calls chose different winners. */
  ordersDisagree?: boolean;
  /** Played after the knockout with the evaluation's extra calls: it decides nothing. */
  extra?: boolean;
}

export interface AnswerView {
  id: string;
  score: number | null;
  scores: number[];
  eliminatedInRound: number | null;
  rank: number;
  /** Who wrote the answer, when the request named it. */
  examinee?: string;
  /** The answer as posted: the shell adds it (the cores never see texts), from the input or from D1. */
  text?: string;
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

/** What a match's calls and flags say beyond its result: kept with it wherever it is stored. */
export function matchFlags(m: {
  tie?: Tie;
  ordersDisagree?: boolean;
  extra?: boolean;
}): Pick<MatchView, "tie" | "ordersDisagree" | "extra"> {
  return {
    ...(m.tie ? { tie: m.tie } : {}),
    ...(m.ordersDisagree !== undefined ? { ordersDisagree: m.ordersDisagree } : {}),
    ...(m.extra ? { extra: true } : {}),
  };
}

/** A recorded call as the API shows it. */
export function callView(
  c: {
    order: readonly string[];
    scores: readonly number[];
    expected?: readonly number[] | null;
    spread?: readonly number[] | null;
    unheld?: readonly number[] | null;
    parseRetried?: boolean;
    endpoint?: string | null;
    model?: string | null;
    revision?: string | null;
    seed?: number | null;
    judge?: string | null;
    votes?: readonly PanelVoteRecord[] | null;
  },
  raw: string,
  width = c.order.length,
): CallView {
  return {
    order: [...c.order],
    scores: c.scores.slice(0, width),
    raw,
    expected: c.expected ? [...c.expected] : null,
    ...(c.spread ? { spread: [...c.spread] } : {}),
    ...(c.unheld ? { unheld: [...c.unheld] } : {}),
    ...(c.parseRetried ? { parseRetried: true } : {}),
    endpoint: c.endpoint ?? null,
    ...(c.model ? { model: c.model } : {}),
    ...(c.revision ? { revision: c.revision } : {}),
    ...(typeof c.seed === "number" ? { seed: c.seed } : {}),
    ...(c.judge ? { judge: c.judge } : {}),
    ...(c.votes?.length ? { votes: c.votes.map((v) => ({ ...v })) } : {}),
  };
}

export function knockoutOutcome(state: KnockoutState, raws: ReadonlyMap<string, string>): Outcome {
  return {
    champion: state.champion,
    answers: standings(state),
    matches: state.matches.map((m) => ({
      ...matchResult(m),
      calls: m.calls.flatMap((c, i) => (c.scores ? [callView({ ...c, scores: c.scores }, raws.get(`${m.index}.${i}`) ?? "", 2)] : [])),
      ...matchFlags(m),
    })),
  };
}
