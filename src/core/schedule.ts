import { rankRows } from "./standings";
import { checkedDetail, decidingScores, mean, ordersDisagree } from "./match";
import type { CallDetail, OpenCall } from "./types";
import { type AnswerView, callView, type MatchView, matchFlags, type Outcome } from "./outcome";

/**
 * Methods whose every judge call is known at the start (individual, naive pairwise, round-robin): a
 * fixed schedule of matches, all calls open at once, finished when every call has a result. Nothing
 * advances, so nothing depends on the order results arrive in; the same seed gives the same schedule.
 *
 * A call's `scores` start with one score per answer it shows (in the call's order); rubric judging
 * appends the criterion scores after the single answer's overall score.
 */
export interface ScheduledCall {
  order: string[];
  scores: number[] | null;
  /** The judge's expected score per answer shown (not per criterion); they make the match scores. */
  expected?: number[] | null;
  spread?: number[] | null;
  unheld?: number[] | null;
  parseRetried?: boolean;
  endpoint?: string;
  model?: string;
  revision?: string;
  seed?: number;
}

export interface ScheduledMatch {
  index: number;
  round: number;
  a: string;
  /** Null for a pointwise judgment of `a` alone. */
  b: string | null;
  calls: ScheduledCall[];
  scoreA: number | null;
  scoreB: number | null;
  /** Pairwise, both orders judged: their calls chose different winners. */
  ordersDisagree?: boolean;
}

export interface ScheduleState {
  ids: readonly string[];
  matches: ScheduledMatch[];
  /** Names of the rubric criteria whose scores follow the overall score of a pointwise call. */
  criteria: readonly string[];
}

/** One planned match: a pair, judged in the order given and, debiased, also in the other order. */
export interface PlannedMatch {
  a: string;
  b: string | null;
  round: number;
}

export function startSchedule(
  ids: readonly string[],
  plan: PlannedMatch[],
  debias: boolean,
  criteria: readonly string[] = [],
): ScheduleState {
  if (new Set(ids).size !== ids.length) throw new Error("answer ids must be unique");
  const matches = plan.map(({ a, b, round }, index): ScheduledMatch => {
    const calls: ScheduledCall[] = b === null ? [{ order: [a], scores: null }] : [{ order: [a, b], scores: null }];
    // debiasing is about the position of two answers; one answer alone has no position to swap
    if (b !== null && debias) calls.push({ order: [b, a], scores: null });
    return { index, round, a, b, calls, scoreA: null, scoreB: null };
  });
  return { ids: [...ids], matches, criteria: [...criteria] };
}

export function scheduleOpenCalls(state: ScheduleState): OpenCall[] {
  return state.matches.flatMap((m) =>
    m.calls.flatMap((c, call) => (c.scores === null ? [{ match: m.index, call, round: m.round, order: [...c.order] }] : [])),
  );
}

export function scheduleFinished(state: ScheduleState): boolean {
  return state.matches.every((m) => m.calls.every((c) => c.scores !== null));
}

/** Same contract as the knockout's recordCall: a second result for one call is an error. */
export function recordScheduled(
  state: ScheduleState,
  match: number,
  call: number,
  scores: number[],
  detail: CallDetail = {},
): ScheduleState {
  const m = state.matches[match];
  if (!m) throw new Error(`no match ${match}`);
  const c = m.calls[call];
  if (!c) throw new Error(`match ${match} has no call ${call}`);
  if (c.scores !== null) throw new Error(`call ${match}.${call} is already recorded`);
  const expected = c.order.length + (m.b === null ? state.criteria.length : 0);
  if (scores.length !== expected) throw new Error(`call ${match}.${call}: expected ${expected} scores, got ${scores.length}`);
  if (!scores.every(Number.isFinite)) throw new Error(`call ${match}.${call}: scores must be finite numbers`);
  const more = checkedDetail(detail, c.order.length, `call ${match}.${call}`);
  const calls = m.calls.map((x, i) => (i === call ? { ...x, scores: [...scores], ...more } : x));
  const matches = state.matches.slice();
  matches[match] = settle({ ...m, calls });
  return { ...state, matches };
}

function settle(m: ScheduledMatch): ScheduledMatch {
  if (m.calls.some((c) => c.scores === null)) return m;
  const scoreOf = (id: string) => mean(m.calls.map((c) => decidingScores(c)[c.order.indexOf(id)]));
  const settled: ScheduledMatch = { ...m, scoreA: scoreOf(m.a), scoreB: m.b === null ? null : scoreOf(m.b) };
  if (m.b !== null && m.calls.length === 2) settled.ordersDisagree = ordersDisagree(m.calls);
  return settled;
}

/** Extra per-answer fields a method adds to the shared standings (e.g. Bradley-Terry strength). */
export type AnswerExtras = (state: ScheduleState) => Map<string, Partial<AnswerView>>;

/**
 * Each answer's score is the mean of its match scores (as in the knockout). Ranks order by score,
 * equal scores share a rank. The champion is the single best answer, or null on a tie at the top: a
 * method without elimination has no tie-break that would mean anything.
 */
export function scheduleOutcome(state: ScheduleState, raws: ReadonlyMap<string, string>, extras?: AnswerExtras): Outcome {
  const scores = new Map<string, number[]>(state.ids.map((id) => [id, []]));
  const criteria = new Map<string, Record<string, number>>();
  for (const m of state.matches) {
    if (m.scoreA !== null) scores.get(m.a)!.push(m.scoreA);
    if (m.b !== null && m.scoreB !== null) scores.get(m.b)!.push(m.scoreB);
    if (m.b === null && state.criteria.length > 0 && m.calls[0].scores) {
      const values = m.calls[0].scores.slice(1);
      criteria.set(m.a, Object.fromEntries(state.criteria.map((name, i) => [name, values[i]])));
    }
  }
  const more = extras?.(state) ?? new Map();
  const rows = state.ids.map((id) => {
    const s = scores.get(id)!;
    return {
      id,
      score: s.length ? mean(s) : null,
      scores: s,
      eliminatedInRound: null,
      ...(criteria.has(id) ? { criteria: criteria.get(id) } : {}),
      ...more.get(id),
    };
  });
  const answers: AnswerView[] = rankRows(rows, (r) => [r.score ?? -Infinity]);
  const top = answers.filter((a) => a.rank === 1 && a.score !== null);
  return {
    champion: scheduleFinished(state) && top.length === 1 ? top[0].id : null,
    answers,
    matches: state.matches.map((m): MatchView => {
      const decided = m.b !== null && m.scoreA !== null && m.scoreB !== null;
      return {
        round: m.round,
        a: m.a,
        b: m.b,
        scoreA: m.scoreA,
        scoreB: m.scoreB,
        winner: decided && m.scoreA! !== m.scoreB! ? (m.scoreA! > m.scoreB! ? m.a : m.b) : null,
        calls: m.calls.flatMap((c, i) => (c.scores ? [callView({ ...c, scores: c.scores }, raws.get(`${m.index}.${i}`) ?? "")] : [])),
        ...matchFlags(m),
      };
    }),
  };
}
