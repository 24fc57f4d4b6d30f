import { planExtras } from "./extra";
import { shuffle } from "./random";
import type { Bye, Call, CallDetail, Debias, KnockoutOptions, KnockoutState, Match, OpenCall } from "./types";

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
 * scores is decided by what the judge believed; the coin flip is left for equal expected scores.
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
  if (!Number.isInteger(extra) || extra < 0 || extra > 4 * ids.length) throw new Error(`extraCalls must be an integer from 0 to 4N (${4 * ids.length})`);
  const margin = options.adaptiveMargin ?? 0;
  if (!(Number.isFinite(margin) && margin >= 0)) throw new Error("adaptiveMargin must be a finite number >= 0");
}

export function matchCount(n: number): number {
  return n - 1;
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
export function recordCall(state: KnockoutState, match: number, call: number, scores: [number, number], detail: CallDetail = {}): KnockoutState {
  const m = state.matches[match];
  if (!m) throw new Error(`no match ${match}`);
  const matches = state.matches.slice();
  matches[match] = scoreCall(m, call, scores, detail, state.options.adaptiveMargin);
  const next = { ...state, matches };
  if (next.champion !== null) return planExtras(next);
  return roundIsOver(next) ? planExtras(advance(next)) : next;
}

/**
 * The match with one more call's scores, settled once all its calls are in; a duplicate or a bad score
 * is refused. An adaptive match whose first call is unsure (written tie, or deciding scores at most
 * `margin` apart) gets its second call, in the other order, instead of being settled.
 */
export function scoreCall(m: Match, call: number, scores: [number, number], detail: CallDetail = {}, margin = 0): Match {
  const c = m.calls[call];
  if (!c) throw new Error(`match ${m.index} has no call ${call}`);
  if (c.scores !== null) throw new Error(`call ${m.index}.${call} is already recorded`);
  if (!scores.every(Number.isFinite)) throw new Error(`call ${m.index}.${call}: scores must be finite numbers`);
  const recorded: Call = { ...c, scores, ...checkedDetail(detail, 2, `call ${m.index}.${call}`) };
  const calls = m.calls.map((x, i): Call => (i === call ? recorded : x));
  if (m.adaptive && calls.length === 1 && isUnsure(recorded, margin)) {
    return { ...m, calls: [...calls, { order: [c.order[1], c.order[0]], scores: null }] };
  }
  return settle({ ...m, calls });
}

/** Adaptive debiasing's test of one call: its written scores tie, or its deciding scores are at most `margin` apart. */
export function isUnsure(c: Pick<Call, "scores" | "expected">, margin: number): boolean {
  const [x, y] = decidingScores(c);
  return c.scores![0] === c.scores![1] || Math.abs(x - y) <= margin;
}

/** The detail's fields that are present, checked: one finite value per answer shown. */
export function checkedDetail(detail: CallDetail, count: number, name: string): Pick<Call, "expected" | "spread" | "parseRetried"> {
  const out: { expected?: [number, number]; spread?: [number, number]; parseRetried?: boolean } = {};
  for (const key of ["expected", "spread"] as const) {
    const values = detail[key];
    if (values === undefined || values === null) continue;
    if (values.length !== count || !values.every((v) => Number.isFinite(v) && v >= 0)) {
      throw new Error(`${name}: ${key} must be ${count} finite numbers >= 0`);
    }
    out[key] = [...values] as [number, number];
  }
  if (detail.parseRetried) out.parseRetried = true;
  return out;
}

/** The scores of a call that decide: the judge's expected scores where it has them, else the written ones. */
export function decidingScores(c: { scores: readonly number[] | null; expected?: readonly number[] | null }): readonly number[] {
  return c.expected ?? c.scores!;
}

/** An answer's score for one match: the mean of what it got in each of the match's calls. */
function settle(m: Match): Match {
  if (m.calls.some((c) => c.scores === null)) return m;
  const scoreOf = (id: string) => mean(m.calls.map((c) => decidingScores(c)[c.order.indexOf(id)]));
  const writtenOf = (id: string) => mean(m.calls.map((c) => c.scores![c.order.indexOf(id)]));
  const scoreA = scoreOf(m.a);
  const scoreB = scoreOf(m.b);
  const settled: Match = { ...m, scoreA, scoreB, winner: scoreA > scoreB ? m.a : m.b };
  // an extra match decides nothing, so there is no tie to report
  if (!m.extra && writtenOf(m.a) === writtenOf(m.b)) settled.tie = scoreA === scoreB ? "position" : "expected";
  if (m.calls.length === 2) settled.ordersDisagree = ordersDisagree(m.calls);
  return settled;
}

/** Two calls of one pair in both orders chose different winners (a call with equal scores chose none). */
export function ordersDisagree(calls: readonly { order: readonly string[]; scores: readonly number[] | null; expected?: readonly number[] | null }[]): boolean {
  const winners = calls.map((c) => {
    const [x, y] = decidingScores(c);
    return x === y ? null : x > y ? c.order[0] : c.order[1];
  });
  return winners.length === 2 && winners[0] !== null && winners[1] !== null && winners[0] !== winners[1];
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

export function newMatch(index: number, round: number, a: string, b: string, debias: Debias): Match {
  const calls: Call[] = [{ order: [a, b], scores: null }];
  // Debiased: the same pair in the other order, sent at the same time (the calls are independent).
  if (debias === true) calls.push({ order: [b, a], scores: null });
  const m: Match = { index, round, a, b, calls, scoreA: null, scoreB: null, winner: null };
  // Adaptive: the other order waits for the first call's answer (scoreCall)
  if (debias === "adaptive") m.adaptive = true;
  return m;
}

export function mean(xs: readonly number[]): number {
  return xs.reduce((s, x) => s + x, 0) / xs.length;
}
