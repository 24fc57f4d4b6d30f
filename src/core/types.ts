import { EXTRA_PLACEMENTS, type ExtraPlacement, TIE_BREAKS, type Tie, type TieBreak } from "../contract/names";

/**
 * What the shell learnt about a call beside its written scores; every field may be absent, and a call
 * recorded without any is scored exactly as before they existed.
 */
export interface CallDetail {
  /** The expected scores read from the judge's probabilities (src/judge/expected), in the call's order. */
  expected?: readonly number[] | null;
  /** The standard deviation of the judge's distribution behind each expected score. */
  spread?: readonly number[] | null;
  /** The expected scores before they were held to the written scores' cells: they break a tie of held scores. */
  unheld?: readonly number[] | null;
  /** The judge was asked again because an earlier reply to this call could not be parsed. */
  parseRetried?: boolean;
  /** The judge endpoint of the pool that answered (its base URL). */
  endpoint?: string | null;
  /** The model the judge said answered, its revision where reported, and the sampling seed sent. */
  model?: string | null;
  revision?: string | null;
  seed?: number | null;
  /** A panel's judge that was asked this call (the model name asked, which the reply may name otherwise). */
  judge?: string | null;
  /** A panel in "all": each judge's answer to this call (its scores averaged into the call's), or why it gave none. */
  votes?: readonly PanelVoteRecord[] | null;
}

/** One judge's answer to a call of a panel in "all" (src/core/panel.ts), in the call's order. */
export interface PanelVote {
  judge: string;
  scores: number[];
  expected?: number[] | null;
  unheld?: number[] | null;
  spread?: number[] | null;
  parseRetried?: boolean;
  endpoint?: string | null;
  model?: string | null;
  revision?: string | null;
  seed?: number | null;
  promptTokens?: number;
  completionTokens?: number;
}

/** A judge of a panel in "all" that gave no answer to a call: down, or its calls failed; `absent` says which. */
export interface PanelAbsence {
  judge: string;
  absent: string;
}

export type PanelVoteRecord = PanelVote | PanelAbsence;

/**
 * One judge call of a match: the answers in the order the judge sees them, and its written scores in
 * that order; with the judge's probabilities, also its expected scores, which then decide.
 */
export interface Call {
  order: [string, string];
  scores: [number, number] | null;
  expected?: [number, number] | null;
  spread?: [number, number] | null;
  unheld?: [number, number] | null;
  parseRetried?: boolean;
  endpoint?: string;
  model?: string;
  revision?: string;
  seed?: number;
  judge?: string;
  votes?: PanelVoteRecord[];
}

/**
 * How a match that its scores alone could not decide was decided (the wire's names, contract/names):
 * "expected" when the written match scores were equal and the judge's expected scores differed;
 * "expected-unheld" when the expected (held) scores were equal too, or equal though the written ones
 * differed (neighbouring half points share a cell edge), and the expectations before holding
 * differed; "record" when nothing differed and the answers' earlier rounds did (TieBreak "record",
 * ./tie-break); "position" when nothing told them apart (or the judge gave no probabilities) and the
 * paper's rule did: the second answer advances. Decided by `decide` (./match) and `breakTie`.
 */
export type { Tie };

/** A question-level match (the paper's term): two answers, one or two judge calls, one winner. */
export interface Match {
  /** Creation order; stable across replays, so it names the match in storage. */
  index: number;
  /** 1-based. */
  round: number;
  a: string;
  b: string;
  calls: Call[];
  /** The match scores that decide: the mean over its calls of the expected scores where a call has them, else the written ones. */
  scoreA: number | null;
  scoreB: number | null;
  winner: string | null;
  /**
   * Set once decided when the written match scores were equal, or the deciding ones (see `Tie`).
   */
  tie?: Tie;
  /** Both orders judged: whether their calls chose different winners (by the scores that decide). */
  ordersDisagree?: boolean;
  /** Adaptive debiasing: the other order is asked for only when the first call is unsure. */
  adaptive?: boolean;
  /**
   * Planned after the knockout with the evaluation's extra calls: it decides nothing (its `winner` is
   * only the higher score) and its `round` counts on after the knockout's last; the API calls it "extra".
   */
  extra?: boolean;
}

export interface Bye {
  round: number;
  id: string;
}

/**
 * Who gets the bye in a bracket's round: "paper", any slot with the paper's odds (the answer that had
 * the last round's bye gets this one too with probability 1/k, as the paper's re-pairing gives it), or
 * "no-repeat", never the slot that had the bye the round before (how bracket evaluations were paired
 * before the option existed; absent means this, so stored evaluations replay as they were played).
 */
export type ByeRule = "paper" | "no-repeat";

/** The bye rule new evaluations are given. */
export const DEFAULT_BYE_RULE: ByeRule = "paper";

/**
 * Who advances from a match the judge could not split (nothing differed: tie "position"). "record":
 * the answer whose match scores in its earlier rounds average higher, the one the final ranking
 * already places higher, then the second answer where the records are equal or one has none (round
 * 1); "position": the second answer always, the paper's rule (absent means this, so evaluations
 * stored before the option replay as they were played). Decided by ./tie-break.
 */
export { TIE_BREAKS, type TieBreak };

/** The tie rule new evaluations are given. */
export const DEFAULT_TIE_BREAK: TieBreak = "record";

/**
 * Where the extra calls go (./extra planExtras). "widest": to the answers whose score one more match
 * narrows the most, the fewest judgments and widest intervals first, first-round losers included (issue
 * 26). "neighbours": to the uncertain answers closest to a neighbour in the ranking (absent means this,
 * so evaluations stored before the option replay as they were played).
 */
export { EXTRA_PLACEMENTS, type ExtraPlacement };

/**
 * The placement new evaluations are given, and the quality bench's extra-call rows use. Over three
 * seeds of judge-sim, both settings and both datasets of the quality bench, "widest" had the higher
 * Pearson at 10 of 12 budgets and gave more first-round losers an extra match at every one
 * (docs/benchmarks.md, the placement rows).
 */
export const DEFAULT_EXTRA_PLACEMENT: ExtraPlacement = "widest";

/**
 * true: judge each match in both orders and average (the paper's debiasing); false: one order;
 * "adaptive": one order, and the other only when the judge is unsure (see `adaptiveMargin`).
 */
export type Debias = boolean | "adaptive";

export interface KnockoutOptions {
  seed: number;
  debias: Debias;
  /** Bracket pairing only; absent: "no-repeat" (see ByeRule). */
  byes?: ByeRule;
  /**
   * Adaptive debiasing: the first call is unsure, and the other order is asked for, when its two
   * deciding scores (expected where given) are at most this far apart, or its written scores tie.
   * In score points; default 0 (ties only). `adaptiveMargin` in ./extra gives the tuned default.
   */
  adaptiveMargin?: number;
  /** Judge calls to spend after the knockout on the least certain answers (./extra); default 0. */
  extraCalls?: number;
  /** Where the extra calls go (./extra ExtraPlacement); absent: "neighbours", as stored evaluations were played. */
  extraPlacement?: ExtraPlacement;
  /** Who advances from a match nothing split (TieBreak); absent: "position", as stored evaluations were played. */
  tieBreak?: TieBreak;
}

export interface KnockoutState {
  ids: readonly string[];
  options: KnockoutOptions;
  matches: Match[];
  byes: Bye[];
  /** The round being played, 1-based. */
  round: number;
  champion: string | null;
}

/** A call the shell still has to make: one answer (pointwise) or two (pairwise), in the order shown. */
export interface OpenCall {
  match: number;
  call: number;
  round: number;
  order: string[];
}

export interface Standing {
  id: string;
  /** Mean of every match score the answer received (the paper's final score); null if it never played. */
  score: number | null;
  scores: number[];
  eliminatedInRound: number | null;
  rank: number;
}
