import { planExtras } from "./extra";
import { shuffle } from "../random/seeded";
import { newMatch, scoreCall } from "./match";
import { breakTie } from "./tie-break";
import {
  type Bye,
  type CallDetail,
  EXTRA_PLACEMENTS,
  type KnockoutOptions,
  type KnockoutState,
  type Match,
  type OpenCall,
  TIE_BREAKS,
} from "./types";

/**
 * The knockout tournament of the paper (seeds/000, Algorithm 1) as a pure state machine: the shell asks
 * for the open calls, makes them, and feeds each judge result back with `recordCall`. Nothing here does
 * I/O, so the same seed and the same judge replies always give the same tournament.
 *
 * Each round the remaining answers are shuffled (seeded, one stream per round) and paired consecutively;
 * with an odd count the last one gets a bye. The higher match score advances. On a tie the second answer
 * of the pair advances: that is the paper's `else` branch, and since the pair order comes from the
 * seeded shuffle it is a reproducible coin flip rather than a preference. When the shell records the
 * judge's expected scores with a call (`CallDetail`), they make the match scores, so a tie of written
 * scores is decided by what the judge believed; the coin flip is left for equal expected scores, and
 * under `tieBreak: "record"` for answers whose earlier rounds are equal too (./tie-break).
 */
export function startKnockout(ids: readonly string[], options: KnockoutOptions): KnockoutState {
  checkOptions(ids, options);
  const state: KnockoutState = { ids: [...ids], options, matches: [], byes: [], round: 0, champion: null };
  return openRound(state, [...ids]);
}

/** What every knockout start checks: two unique answers, and extra calls and margin in range. */
export function checkOptions(ids: readonly string[], options: KnockoutOptions): void {
  if (ids.length < 2) throw new Error("a knockout needs at least 2 answers");
  if (new Set(ids).size !== ids.length) throw new Error("answer ids must be unique");
  if (![true, false, "adaptive"].includes(options.debias)) throw new Error(`debias must be true, false or "adaptive"`);
  const extra = options.extraCalls ?? 0;
  if (!Number.isInteger(extra) || extra < 0 || extra > 4 * ids.length)
    throw new Error(`extraCalls must be an integer from 0 to 4N (${4 * ids.length})`);
  const margin = options.adaptiveMargin ?? 0;
  if (!(Number.isFinite(margin) && margin >= 0)) throw new Error("adaptiveMargin must be a finite number >= 0");
  if (options.extraPlacement !== undefined && !EXTRA_PLACEMENTS.includes(options.extraPlacement))
    throw new Error(`extraPlacement must be one of ${EXTRA_PLACEMENTS.join(", ")}`);
  if (options.tieBreak !== undefined && !TIE_BREAKS.includes(options.tieBreak))
    throw new Error(`tieBreak must be one of ${TIE_BREAKS.join(", ")}`);
}

export function callsPerMatch(options: Pick<KnockoutOptions, "debias">): number {
  return options.debias ? 2 : 1;
}

/** The calls not yet answered, in match order; all of a round's calls are open at once. */
export function openCalls(state: Pick<KnockoutState, "matches">): OpenCall[] {
  const open: OpenCall[] = [];
  for (const m of state.matches) {
    if (m.winner !== null) continue;
    m.calls.forEach((c, i) => {
      if (c.scores === null) open.push({ match: m.index, call: i, round: m.round, order: c.order });
    });
  }
  return open;
}

/** The champion is known and every call is in, extra calls included. */
export function isFinished(state: KnockoutState): boolean {
  return state.champion !== null && state.matches.every((m) => m.winner !== null);
}

/**
 * Feed one judge result back: `scores` are in the call's order. Recording the same call twice is an
 * error, never a silent overwrite: a duplicate would mean a result was counted twice.
 */
export function recordCall(
  state: KnockoutState,
  match: number,
  call: number,
  scores: [number, number],
  detail: CallDetail = {},
): KnockoutState {
  const m = state.matches[match];
  if (!m) throw new Error(`no match ${match}`);
  const matches = state.matches.slice();
  matches[match] = settledCall(state.options, matches, m, call, scores, detail);
  const next = { ...state, matches };
  if (next.champion !== null) return planExtras(next);
  return roundIsOver(next) ? planExtras(advance(next)) : next;
}

/** The match with the call's scores, a tie nothing split broken by the answers' records under tieBreak "record". */
export function settledCall(
  options: KnockoutOptions,
  matches: readonly Match[],
  m: Match,
  call: number,
  scores: [number, number],
  detail: CallDetail,
): Match {
  const scored = scoreCall(m, call, scores, detail, options.adaptiveMargin);
  return options.tieBreak === "record" ? breakTie(scored, matches) : scored;
}

function roundIsOver(state: KnockoutState): boolean {
  return state.matches.every((m) => m.round !== state.round || m.winner !== null);
}

function advance(state: KnockoutState): KnockoutState {
  // Winners in match order, then the bye: the next shuffle then depends only on the results.
  const advancing = state.matches.filter((m) => m.round === state.round).map((m) => m.winner!);
  const bye = state.byes.find((b) => b.round === state.round);
  if (bye) advancing.push(bye.id);
  if (advancing.length === 1) return { ...state, champion: advancing[0] };
  return openRound(state, advancing);
}

function openRound(state: KnockoutState, remaining: string[]): KnockoutState {
  const round = state.round + 1;
  const order = shuffle(remaining, state.options.seed, round);
  const matches = state.matches.slice();
  const byes: Bye[] = state.byes.slice();
  for (let k = 0; k + 1 < order.length; k += 2) {
    matches.push(newMatch(matches.length, round, order[k], order[k + 1], state.options.debias));
  }
  if (order.length % 2 === 1) byes.push({ round, id: order[order.length - 1] });
  return { ...state, matches, byes, round };
}
