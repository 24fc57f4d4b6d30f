import type { Outcome } from "./outcome";
import type { ByeRule, CallDetail, Debias, ExtraPlacement, OpenCall, TieBreak } from "./types";

/**
 * How a knockout pairs its later rounds: "round" re-pairs the winners at random once a whole round is
 * in (the paper); "bracket" draws every round's pairing at the start, over match slots, so a match
 * starts as soon as its two feeders end (the paper's odds with `byes: "paper"`, see ./bracket).
 */
/** Every method the API offers, by the name in the `method` field: the one list of them (methods.ts has their cores). */
import { METHOD_NAMES, type MethodName, type Pairing } from "../contract/names";
export { METHOD_NAMES, type MethodName, type Pairing };

export interface MethodOptions {
  seed: number;
  /** "adaptive" is the knockout's only; the scheduled methods refuse it. */
  debias: Debias;
  /** The knockout: adaptive debiasing's margin, in score points (types.ts KnockoutOptions). */
  adaptiveMargin?: number;
  /** The knockout: judge calls to spend after it on the least certain answers (./extra). */
  extraCalls?: number;
  /** The knockout: where the extra calls go (./extra); absent: "neighbours", as stored evaluations were played. */
  extraPlacement?: ExtraPlacement;
  /** Rubric criteria (pointwise only): their scores follow the overall score in a call's `scores`. */
  criteria?: readonly string[];
  /** Absent means "round": evaluations stored before pairing existed replay as they were played. */
  pairing?: Pairing;
  /** Bracket pairing: who may get the bye (types.ts ByeRule); absent means "no-repeat", as stored evaluations were played. */
  byes?: ByeRule;
  /** The knockout: who advances from a match nothing split (types.ts TieBreak); absent means "position", as stored evaluations were played. */
  tieBreak?: TieBreak;
}

/**
 * What every assessment method is to the shell: a pure, seeded state machine that lists the judge
 * calls it still needs, takes each result back, and says what it has found. The Durable Object knows
 * only this interface, so a method is added by writing its core and registering it in ./methods.
 * `record` gets the written scores in the call's order: one per answer the judge saw; `detail` what
 * else the shell knows of the call (the expected scores from the judge's probabilities, which then
 * decide, and whether the reply had to be asked for again). Replays must pass the same detail.
 */
export interface MethodCore<S> {
  start(ids: readonly string[], options: MethodOptions): S;
  openCalls(state: S): OpenCall[];
  record(state: S, match: number, call: number, scores: number[], detail?: CallDetail): S;
  isFinished(state: S): boolean;
  /** `raws` holds the judge's text per call, keyed "match.call". */
  outcome(state: S, raws: ReadonlyMap<string, string>): Outcome;
  /**
   * How many judge calls the method makes for n answers; usage.judgeCalls equals it. With adaptive
   * debiasing or extra calls it is the most it can make (`knockoutUsage` says what it made and saved).
   */
  callCount(n: number, options: Pick<MethodOptions, "debias" | "extraCalls">): number;
}
