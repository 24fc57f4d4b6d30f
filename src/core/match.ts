import type { Call, CallDetail, Debias, Match } from "./types";

// One match of any method, pure: its calls, how a call's scores are recorded and read, and how a match
// is settled. The tournaments (knockout.ts, bracket.ts, schedule.ts) and the confidence build on it.

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
export function checkedDetail(
  detail: CallDetail,
  count: number,
  name: string,
): Pick<Call, "expected" | "spread" | "parseRetried" | "endpoint"> {
  const out: { expected?: [number, number]; spread?: [number, number]; parseRetried?: boolean; endpoint?: string } = {};
  for (const key of ["expected", "spread"] as const) {
    const values = detail[key];
    if (values === undefined || values === null) continue;
    if (values.length !== count || !values.every((v) => Number.isFinite(v) && v >= 0)) {
      throw new Error(`${name}: ${key} must be ${count} finite numbers >= 0`);
    }
    out[key] = [...values] as [number, number];
  }
  if (detail.parseRetried) out.parseRetried = true;
  if (detail.endpoint) out.endpoint = detail.endpoint;
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
export function ordersDisagree(
  calls: readonly { order: readonly string[]; scores: readonly number[] | null; expected?: readonly number[] | null }[],
): boolean {
  const winners = calls.map((c) => {
    const [x, y] = decidingScores(c);
    return x === y ? null : x > y ? c.order[0] : c.order[1];
  });
  return winners.length === 2 && winners[0] !== null && winners[1] !== null && winners[0] !== winners[1];
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
