import { scoreUncertainty } from "./confidence";
import { newMatch } from "./match";
import { standings } from "./standings";
import type { Debias, KnockoutState, Match } from "./types";

/**
 * Judgments where they matter: after the knockout has its champion, `extraCalls` more judge calls go to
 * the answers whose scores are least certain and closest to their neighbours. Pure and seeded like the
 * knockout: a wave of extra matches is planned only once every earlier match is in, from the recorded
 * results alone, so a replay plans the same waves whatever order the results came back in.
 *
 * A wave pairs answers Swiss-style, neighbours by score that have not met: a pair's priority is
 * v * exp(-d^2 / 2v), v the sum of the two scores' variances (their standard errors,
 * `scoreUncertainty`) and d the distance of their scores, so uncertain answers come first and, among
 * them, those whose order with a neighbour is in doubt. The first-round losers, judged once and close
 * together at the bottom, are what this picks first. A pair never meets twice: a judge at a low
 * temperature answers the same prompt the same way, so a rematch would add a judgment and no
 * information (judge-sim's noise is a function of the prompt, too). Pairs are taken greedily, each
 * answer once a wave, while the calls left allow a match (2 calls debiased or adaptive, 1 without);
 * the extra calls end when they are spent or every pair has met. Each extra match is one more match
 * score of both answers; it advances and eliminates no one, so the champion and the rounds stay the
 * knockout's. Who is shown first: the answer shown first less often so far.
 */
export function planExtras<S extends KnockoutState>(state: S): S {
  const budget = state.options.extraCalls ?? 0;
  if (state.champion === null || budget <= 0) return state;
  if (state.matches.some((m) => m.winner === null)) return state;
  const perMatch = state.options.debias === false ? 1 : 2;
  const spent = state.matches.reduce((n, m) => n + (m.extra ? m.calls.length : 0), 0);
  let left = budget - spent;
  if (left < perMatch) return state;

  const uncertainty = scoreUncertainty(state.ids, state.matches);
  const ranked = standings(state).sort((x, y) => (y.score ?? -Infinity) - (x.score ?? -Infinity) || x.rank - y.rank);
  const met = new Set<string>();
  const firsts = new Map<string, number>(state.ids.map((id) => [id, 0]));
  for (const m of state.matches) {
    met.add(pairKey(m.a, m.b));
    for (const c of m.calls) firsts.set(c.order[0], firsts.get(c.order[0])! + 1);
  }
  const candidates: { a: string; b: string; priority: number; order: number }[] = [];
  for (let i = 0; i < ranked.length; i++) {
    for (let j = i + 1; j < ranked.length; j++) {
      const [x, y] = [uncertainty.get(ranked[i].id), uncertainty.get(ranked[j].id)];
      if (!x || !y || met.has(pairKey(ranked[i].id, ranked[j].id))) continue;
      const v = finite(x.se) ** 2 + finite(y.se) ** 2;
      const d = x.score - y.score;
      candidates.push({ a: ranked[i].id, b: ranked[j].id, priority: v * Math.exp(-(d * d) / (2 * v)), order: candidates.length });
    }
  }
  candidates.sort((p, q) => q.priority - p.priority || p.order - q.order);

  const lastRound = state.matches.reduce((r, m) => Math.max(r, m.round), 0);
  const used = new Set<string>();
  const added: Match[] = [];
  for (const c of candidates) {
    if (left < perMatch) break;
    if (used.has(c.a) || used.has(c.b)) continue;
    used.add(c.a);
    used.add(c.b);
    const [first, second] = firsts.get(c.b)! < firsts.get(c.a)! ? [c.b, c.a] : [c.a, c.b];
    added.push({ ...newMatch(state.matches.length + added.length, lastRound + 1, first, second, state.options.debias), extra: true });
    left -= perMatch;
  }
  return added.length ? { ...state, matches: [...state.matches, ...added] } : state;
}

/**
 * The extra calls `n` answers can take of `requested`: a pair never meets twice and the knockout's n - 1
 * matches have met n - 1 pairs, so (n - 1)(n - 2) / 2 pairs are left, one match each. A match is 2 calls
 * debiased, 1 without; a budget that leaves less than a match is not spent (planExtras), so it is not
 * usable either. Adaptive matches may take 1 call or 2, so any budget up to 2 calls a pair may be spent.
 * The evaluation is created with this number, so the dry run, the progress total and the run agree.
 */
export function usableExtraCalls(n: number, debias: Debias, requested: number): number {
  const pairs = Math.max(0, ((n - 1) * (n - 2)) / 2);
  if (debias === "adaptive") return Math.min(requested, 2 * pairs);
  const perMatch = debias ? 2 : 1;
  return Math.min(Math.floor(requested / perMatch), pairs) * perMatch;
}

/** A standard error that is not known (nothing tells the noise yet) counts as large, not as nothing. */
const finite = (se: number): number => (Number.isFinite(se) ? se : 1e3);

const pairKey = (a: string, b: string): string => (a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`);

/** A margin for adaptive debiasing on a scale of `maxScore`: a tenth of the scale (tuned on the quality bench). */
export function adaptiveMargin(maxScore: number): number {
  return maxScore / 10;
}

/** What a finished (or running) knockout spent: its calls, those on extra matches, and those adaptive debiasing saved against sending both orders. */
export function knockoutUsage(state: KnockoutState): { judgeCalls: number; extraCalls: number; callsSaved: number } {
  let judgeCalls = 0;
  let extraCalls = 0;
  let callsSaved = 0;
  for (const m of state.matches) {
    const made = m.calls.filter((c) => c.scores !== null).length;
    judgeCalls += made;
    if (m.extra) extraCalls += made;
    if (m.adaptive && m.winner !== null) callsSaved += 2 - m.calls.length;
  }
  return { judgeCalls, extraCalls, callsSaved };
}
