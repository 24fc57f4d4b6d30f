// The one input every rating system here consumes: a list of two-player games, in the order they
// were played. Sequential systems (Elo, TrueSkill, Glicko-2 by period) depend on that order;
// Bradley-Terry and the transitivity check do not.

import { seededRandom } from "../random/seeded";

export type Outcome = 1 | 0.5 | 0;

export interface Game {
  readonly a: string;
  readonly b: string;
  /** Score of `a`: 1 = a wins, 0.5 = draw, 0 = b wins. */
  readonly outcome: Outcome;
  /**
   * Optional round (e.g. round-robin round or knockout elimination round). Only Glicko-2 uses it:
   * games sharing a round form one rating period.
   */
  readonly round?: number;
}

export function validateGame(game: Game): void {
  if (typeof game.a !== "string" || typeof game.b !== "string" || game.a === "" || game.b === "") {
    throw new RangeError(`game players must be non-empty strings: ${JSON.stringify(game)}`);
  }
  if (game.a === game.b) throw new RangeError(`a player cannot play itself: ${JSON.stringify(game)}`);
  if (game.outcome !== 1 && game.outcome !== 0.5 && game.outcome !== 0) {
    throw new RangeError(`game outcome must be 1, 0.5 or 0: ${JSON.stringify(game)}`);
  }
  if (game.round !== undefined && !Number.isFinite(game.round)) {
    throw new RangeError(`game round must be a finite number: ${JSON.stringify(game)}`);
  }
}

/** Players in order of first appearance, then any extra `players` not seen in a game. */
export function playersOf(games: readonly Game[], players: readonly string[] = []): string[] {
  const seen = new Set<string>();
  for (const game of games) {
    seen.add(game.a);
    seen.add(game.b);
  }
  for (const player of players) seen.add(player);
  return [...seen];
}

/**
 * A match between two examinees decided by their scores (e.g. the two answers of one knockout
 * match): the higher score wins, equal scores draw.
 */
export function gameFromScores(a: string, scoreA: number, b: string, scoreB: number, round?: number): Game {
  if (!Number.isFinite(scoreA) || !Number.isFinite(scoreB)) {
    throw new RangeError(`scores must be finite numbers, got ${scoreA} and ${scoreB}`);
  }
  const outcome: Outcome = scoreA > scoreB ? 1 : scoreA < scoreB ? 0 : 0.5;
  const game: Game = round === undefined ? { a, b, outcome } : { a, b, outcome, round };
  validateGame(game);
  return game;
}

/** A model's score on one benchmark instance: correct/incorrect, or any number; null = not answered. */
export type InstanceScore = number | boolean | null | undefined;

export type InstanceOutcomes = ReadonlyMap<string, ReadonlyArray<InstanceScore>> | Readonly<Record<string, ReadonlyArray<InstanceScore>>>;

export interface BenchmarkTournamentOptions {
  /** k: instances sampled per match. If fewer instances are available, all of them are used. */
  readonly matchSize: number;
  /** N: matches per pair of models. */
  readonly rounds: number;
  /** Seed of the instance schedules. Default 0. */
  readonly seed?: number;
}

/**
 * Games of a benchmark-built tournament (seeds/002 section 4): round-robin scheduling, every pair
 * of models meets in each of N rounds, each match is k instances sampled without replacement from
 * the instances both models answered, each instance gives a point to the model with the strictly
 * better score (the comparison function kappa, eq. 2), and the match goes to the model with more
 * points (eq. 3), equal totals being a draw.
 *
 * Instance arrays are aligned by index across models (index i is the same benchmark item for
 * every model). Games come out round by round, pairs in model order within a round, each tagged
 * with its round (0-based). Each match draws its own schedule. For several tasks, call once per
 * task and concatenate.
 */
export function benchmarkTournamentGames(outcomes: InstanceOutcomes, options: BenchmarkTournamentOptions): Game[] {
  const { matchSize, rounds, seed = 0 } = options;
  if (!Number.isInteger(matchSize) || matchSize < 1) throw new RangeError(`matchSize must be a positive integer, got ${matchSize}`);
  if (!Number.isInteger(rounds) || rounds < 0) throw new RangeError(`rounds must be a non-negative integer, got ${rounds}`);
  const entries: [string, ReadonlyArray<InstanceScore>][] = outcomes instanceof Map ? [...outcomes.entries()] : Object.entries(outcomes);
  const models = entries.map(([model, scores]) => {
    if (model === "") throw new RangeError("model names must be non-empty");
    return { model, scores: scores.map(toNumber) };
  });
  const random = seededRandom(seed);
  const games: Game[] = [];
  // the instances both models of a pair answered: the same every round, so found once
  const sharedOf = new Map<number, number[]>();
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < models.length; i++) {
      for (let j = i + 1; j < models.length; j++) {
        const first = models[i];
        const second = models[j];
        const key = i * models.length + j;
        let shared = sharedOf.get(key);
        if (!shared) {
          shared = [];
          const length = Math.min(first.scores.length, second.scores.length);
          for (let x = 0; x < length; x++) {
            if (first.scores[x] !== null && second.scores[x] !== null) shared.push(x);
          }
          sharedOf.set(key, shared);
        }
        if (shared.length === 0) continue; // nothing to compare on: no match, not a draw
        const schedule = sampleWithoutReplacement(shared, matchSize, random.nextInt);
        let pointsFirst = 0;
        let pointsSecond = 0;
        for (const x of schedule) {
          const s1 = first.scores[x] as number;
          const s2 = second.scores[x] as number;
          if (s1 > s2) pointsFirst++;
          else if (s2 > s1) pointsSecond++;
        }
        const outcome: Outcome = pointsFirst > pointsSecond ? 1 : pointsFirst < pointsSecond ? 0 : 0.5;
        games.push({ a: first.model, b: second.model, outcome, round });
      }
    }
  }
  return games;
}

function toNumber(score: InstanceScore): number | null {
  if (score === null || score === undefined) return null;
  if (typeof score === "boolean") return score ? 1 : 0;
  if (!Number.isFinite(score)) throw new RangeError(`instance scores must be finite, got ${score}`);
  return score;
}

// Partial Fisher-Yates: the first k slots of a shuffled copy. The copy is virtual (the slots moved so
// far, over `items`), so a match of k instances costs k steps, not a copy of all the shared instances.
function sampleWithoutReplacement<T>(items: readonly T[], k: number, nextInt: (n: number) => number): T[] {
  const moved = new Map<number, T>();
  const at = (i: number) => (moved.has(i) ? moved.get(i)! : items[i]);
  const take = Math.min(k, items.length);
  const out: T[] = [];
  for (let i = 0; i < take; i++) {
    const j = i + nextInt(items.length - i);
    const picked = at(j);
    moved.set(j, at(i));
    moved.set(i, picked);
    out.push(picked);
  }
  return out;
}

/** Head-to-head tally of one unordered pair, from the point of view of `a` (a < b by name). */
export interface HeadToHead {
  readonly a: string;
  readonly b: string;
  readonly games: number;
  /** Points of `a`: wins + half the draws. Points of `b` are games - scoreA. */
  readonly scoreA: number;
}

/** Aggregates games by unordered pair; pairs are keyed with the alphabetically smaller name first. */
export function headToHead(games: readonly Game[]): HeadToHead[] {
  const tallies = new Map<string, { a: string; b: string; games: number; scoreA: number }>();
  for (const game of games) {
    validateGame(game);
    const [a, b, scoreA] = game.a < game.b ? [game.a, game.b, game.outcome] : [game.b, game.a, 1 - game.outcome];
    const key = JSON.stringify([a, b]);
    const tally = tallies.get(key) ?? { a, b, games: 0, scoreA: 0 };
    tally.games += 1;
    tally.scoreA += scoreA;
    tallies.set(key, tally);
  }
  return [...tallies.values()];
}
