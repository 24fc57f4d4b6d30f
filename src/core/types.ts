/** One judge call of a match: the answers in the order the judge sees them, and its scores in that order. */
export interface Call {
  order: [string, string];
  scores: [number, number] | null;
}

/** A question-level match (the paper's term): two answers, one or two judge calls, one winner. */
export interface Match {
  /** Creation order; stable across replays, so it names the match in storage. */
  index: number;
  /** 1-based. */
  round: number;
  a: string;
  b: string;
  calls: Call[];
  scoreA: number | null;
  scoreB: number | null;
  winner: string | null;
}

export interface Bye {
  round: number;
  id: string;
}

export interface KnockoutOptions {
  seed: number;
  /** Judge each match in both orders and average (the paper's debiasing). */
  debias: boolean;
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
