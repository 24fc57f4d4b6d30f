import type { Call, CallDetail, Debias, Match, PanelVoteRecord, Tie } from "./types";

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
): Pick<Call, "expected" | "spread" | "unheld" | "parseRetried" | "endpoint" | "model" | "revision" | "seed" | "judge" | "votes"> {
  const out: {
    expected?: [number, number];
    spread?: [number, number];
    unheld?: [number, number];
    parseRetried?: boolean;
    endpoint?: string;
    model?: string;
    revision?: string;
    seed?: number;
    judge?: string;
    votes?: PanelVoteRecord[];
  } = {};
  for (const key of ["expected", "spread", "unheld"] as const) {
    const values = detail[key];
    if (values === undefined || values === null) continue;
    if (values.length !== count || !values.every((v) => Number.isFinite(v) && v >= 0)) {
      throw new Error(`${name}: ${key} must be ${count} finite numbers >= 0`);
    }
    out[key] = [...values] as [number, number];
  }
  if (detail.parseRetried) out.parseRetried = true;
  if (detail.endpoint) out.endpoint = detail.endpoint;
  if (detail.model) out.model = detail.model;
  if (detail.revision) out.revision = detail.revision;
  if (typeof detail.seed === "number") out.seed = detail.seed;
  if (detail.judge) out.judge = detail.judge;
  if (detail.votes?.length) out.votes = detail.votes.map((v) => ({ ...v }));
  return out;
}

/** The scores of a call that decide: the judge's expected scores where it has them, else the written ones. */
export function decidingScores(c: { scores: readonly number[] | null; expected?: readonly number[] | null }): readonly number[] {
  return c.expected ?? c.scores!;
}

/** A call's expected scores before they were held to their cells, where it kept them; else its deciding scores. */
export function unheldScores(c: {
  scores: readonly number[] | null;
  expected?: readonly number[] | null;
  unheld?: readonly number[] | null;
}) {
  return c.unheld ?? decidingScores(c);
}

/** A pair's match scores of one kind, [a, b]: each answer's mean over the match's calls. */
export type PairScores = readonly [number, number];

/**
 * Whether the first answer wins, and how a tie was broken. The deciding (held) scores first; when
 * they are equal, the judge's expectations before holding, since two unsure answers held to the same
 * cell edge (both written 5, believed 4.6 and 4.4, held to 4.75) were not alike to the judge; then the
 * written scores, which can differ under equal held ones where neighbouring half points share a cell
 * edge; then position, the paper's rule (the second answer advances). The written scores break a tie
 * only when `keptUnheld` (every call with expected scores kept its unheld ones): calls recorded before
 * they were kept replay as they were played, the second answer advancing.
 */
export function decide(held: PairScores, unheld: PairScores, written: PairScores, keptUnheld: boolean): { first: boolean; tie?: Tie } {
  const writtenTie = written[0] === written[1];
  if (held[0] !== held[1]) return { first: held[0] > held[1], ...(writtenTie ? { tie: "expected" as const } : {}) };
  if (unheld[0] !== unheld[1]) return { first: unheld[0] > unheld[1], tie: "expected-unheld" };
  if (!writtenTie && keptUnheld) return { first: written[0] > written[1] };
  return { first: false, ...(writtenTie ? { tie: "position" as const } : {}) };
}

/** An answer's score for one match: the mean of what it got in each of the match's calls. */
function settle(m: Match): Match {
  if (m.calls.some((c) => c.scores === null)) return m;
  const pair = (scoresOf: (c: Call) => readonly number[]): PairScores => {
    const of = (id: string) => mean(m.calls.map((c) => scoresOf(c)[c.order.indexOf(id)]));
    return [of(m.a), of(m.b)];
  };
  const held = pair(decidingScores);
  const keptUnheld = m.calls.every((c) => !c.expected || c.unheld);
  const { first, tie } = decide(
    held,
    pair(unheldScores),
    pair((c) => c.scores!),
    keptUnheld,
  );
  const settled: Match = { ...m, scoreA: held[0], scoreB: held[1], winner: first ? m.a : m.b };
  // an extra match decides nothing, so there is no tie to report
  if (!m.extra && tie) settled.tie = tie;
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
