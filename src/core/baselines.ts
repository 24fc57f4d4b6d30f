import { fitBradleyTerry } from "../ratings/bradley-terry";
import { gameFromScores } from "../ratings/games";
import { shuffle } from "../random/seeded";
import type { PlannedMatch, ScheduleState } from "./schedule";

// The schedules of the paper's baselines and of round-robin. Each is a pure function of the answer ids
// and the seed, so a replay after a restart plans exactly the same matches.

/** Individual assessment: one pointwise judgment per answer, in the request's order. */
export function individualPlan(ids: readonly string[]): PlannedMatch[] {
  return ids.map((a) => ({ a, b: null, round: 1 }));
}

/**
 * The paper's naive pairwise baseline: the first round of a knockout and nothing after it (the same
 * seeded shuffle as the knockout's first round, so with the same seed the pairs are the same). With an
 * odd count the answer left over is not left unscored: it plays one extra match against the first
 * answer of the shuffle, so every answer gets a score and the count stays ceil(N/2) matches.
 */
export function pairwisePlan(ids: readonly string[], seed: number): PlannedMatch[] {
  const order = shuffle(ids, seed, 1);
  const plan: PlannedMatch[] = [];
  for (let k = 0; k + 1 < order.length; k += 2) plan.push({ a: order[k], b: order[k + 1], round: 1 });
  // the left-over answer is shown first: the first answer of the shuffle was first in its own match
  if (order.length % 2 === 1 && order.length > 1) plan.push({ a: order[order.length - 1], b: order[0], round: 1 });
  return plan;
}

/**
 * Round-robin: every unordered pair once. The pairs come from a seeded shuffle and who is shown first
 * alternates along it, so without debiasing each answer is first in about half its matches and the
 * judge's position bias does not favour the answers listed early in the request.
 */
export function roundRobinPlan(ids: readonly string[], seed: number): PlannedMatch[] {
  const order = shuffle(ids, seed, 1);
  const plan: PlannedMatch[] = [];
  for (let i = 0; i < order.length; i++) {
    for (let j = i + 1; j < order.length; j++) {
      const [a, b] = (i + j) % 2 === 0 ? [order[i], order[j]] : [order[j], order[i]];
      plan.push({ a, b, round: 1 });
    }
  }
  return plan;
}

/** Each finished match is a game won by the higher match score (equal scores draw). */
export function bradleyTerryStrengths(state: ScheduleState): Map<string, { strength: number }> {
  const games = state.matches.flatMap((m) =>
    m.b !== null && m.scoreA !== null && m.scoreB !== null ? [gameFromScores(m.a, m.scoreA, m.b, m.scoreB)] : [],
  );
  if (games.length === 0) return new Map();
  // the MLE where it exists; where an answer won (or lost) every match, the MAP's small prior keeps it finite
  const { ratings } = fitBradleyTerry(games, { players: state.ids });
  return new Map([...ratings].map(([id, r]) => [id, { strength: r.strength }]));
}
