import { type ScoreUncertainty, scoreUncertainty } from "./uncertainty";
import { newMatch } from "./match";
import { standings } from "./standings";
import type { Debias, ExtraPlacement, KnockoutState, Match } from "./types";

/**
 * Judgments where they matter: after the knockout has its champion, `extraCalls` more judge calls go to
 * the answers the placement picks. Pure and seeded like the knockout: a wave of extra matches is planned
 * only once every earlier match is in, from the recorded results alone, so a replay plans the same waves
 * whatever order the results came back in.
 *
 * A wave ranks every pair that has not met by the placement's priority and takes pairs greedily, each
 * answer once a wave, while the calls left allow a match (2 calls debiased or adaptive, 1 without); the
 * extra calls end when they are spent or every pair has met. The priorities, with v_x an answer's
 * squared standard error (`scoreUncertainty`), k_x its judgments and p the judgments a match adds:
 *   - "widest": g_a + g_b, g_x = v_x p / (k_x + p), by how much the match shrinks each answer's
 *     variance (v_x is sigma^2 / k_x; one match more makes it sigma^2 / (k_x + p)). So an answer judged
 *     twice, whose interval is widest, comes before one judged six times, and a first-round loser is
 *     never passed over because it is far from its neighbours: its score is the mean of one match, the
 *     one it lost, and so lower than the judge's long-run mean for it; more matches pull it back.
 *     Equal priorities: the closer scores first (a real judge compares close answers more finely).
 *   - "neighbours": v e^(-d^2 / 2v), v = v_a + v_b and d the distance of their scores, Swiss-style:
 *     uncertain answers first and, among them, those whose order with a neighbour is in doubt.
 * A pair never meets twice: a judge at a low temperature answers the same prompt the same way, so a
 * rematch would add a judgment and no information (judge-sim's noise is a function of the prompt, too).
 * Each extra match is one more match score of both answers; it advances and eliminates no one, so the
 * champion and the rounds stay the knockout's. Who is shown first: the answer shown first less often so far.
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
  const judgments = new Map<string, number>(state.ids.map((id) => [id, 0]));
  for (const m of state.matches) {
    met.add(pairKey(m.a, m.b));
    for (const c of m.calls) {
      firsts.set(c.order[0], firsts.get(c.order[0])! + 1);
      for (const id of c.order) judgments.set(id, judgments.get(id)! + 1);
    }
  }
  const priority = priorityOf(state.options.extraPlacement ?? "neighbours", perMatch, judgments);
  const candidates: { a: string; b: string; priority: number; closeness: number; order: number }[] = [];
  for (let i = 0; i < ranked.length; i++) {
    for (let j = i + 1; j < ranked.length; j++) {
      const [a, b] = [ranked[i].id, ranked[j].id];
      const [x, y] = [uncertainty.get(a), uncertainty.get(b)];
      if (!x || !y || met.has(pairKey(a, b))) continue;
      candidates.push({ a, b, priority: priority(a, x, b, y), closeness: -Math.abs(x.score - y.score), order: candidates.length });
    }
  }
  candidates.sort((p, q) => q.priority - p.priority || q.closeness - p.closeness || p.order - q.order);

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

type Priority = (a: string, x: ScoreUncertainty, b: string, y: ScoreUncertainty) => number;

/** A pair's priority under `placement` (see planExtras). */
function priorityOf(placement: ExtraPlacement, perMatch: number, judgments: ReadonlyMap<string, number>): Priority {
  if (placement === "widest") {
    const gain = (id: string, u: ScoreUncertainty) => (finite(u.se) ** 2 * perMatch) / (judgments.get(id)! + perMatch);
    return (a, x, b, y) => gain(a, x) + gain(b, y);
  }
  return (_a, x, _b, y) => {
    const v = finite(x.se) ** 2 + finite(y.se) ** 2;
    const d = x.score - y.score;
    return v * Math.exp(-(d * d) / (2 * v));
  };
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
