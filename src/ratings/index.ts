// One call for the API and the CLI: rate a tournament's games with every system of seeds/002
// section 6.3, with bootstrap intervals, ranks, and the transitivity check of section 6.1.2.

import { bootstrapRatings, BOOTSTRAP_DEFAULTS, type BootstrapOptions, type Interval } from "./bootstrap.js";
import { fitBradleyTerry, type BradleyTerryOptions } from "./bradley-terry.js";
import { rateElo, type EloOptions } from "./elo.js";
import { playersOf, validateGame, type Game } from "./games.js";
import { rateGlicko2, ratingPeriods, type Glicko2Options } from "./glicko2.js";
import { withDefaults } from "./options.js";
import { rankByRating } from "./ranking.js";
import {
  majorityAgreement,
  pairwiseMajorities,
  transitivityReport,
  type MajorityAgreement,
  type TransitivityReport,
} from "./transitivity.js";
import { rateTrueSkill, type TrueSkillOptions } from "./trueskill.js";

export * from "./bootstrap.js";
export * from "./bounds.js";
export * from "./bradley-terry.js";
export * from "./elo.js";
export * from "./games.js";
export * from "./gaussian.js";
export * from "./glicko2.js";
export * from "./ranking.js";
export * from "./transitivity.js";
export * from "./trueskill.js";

import { RATING_SYSTEMS, type RatingSystem } from "../contract/names.js";
export { RATING_SYSTEMS, type RatingSystem };

export interface RateTournamentOptions {
  /** Systems to run. Default: all four. */
  readonly systems?: readonly RatingSystem[];
  /** Bootstrap settings; false skips the bootstrap (intervals are then null). Default: 1000 samples, 95%, seed 0. */
  readonly bootstrap?: BootstrapOptions | false;
  readonly elo?: Omit<EloOptions, "players">;
  readonly bradleyTerry?: Omit<BradleyTerryOptions, "players" | "initialStrengths" | "workBudget">;
  /**
   * The most work all of the Bradley-Terry fits together may do (units of BradleyTerryOptions.workBudget):
   * half for the point fit, which is the rating shown and starts cold, and half shared equally by the
   * bootstrap samples, which start from it; all of it for the point fit without a bootstrap. Default
   * Infinity.
   */
  readonly bradleyTerryWork?: number;
  readonly glicko2?: Omit<Glicko2Options, "players" | "initial">;
  readonly trueskill?: Omit<TrueSkillOptions, "players">;
}

export interface PlayerRating {
  readonly player: string;
  /** Elo: rating; Bradley-Terry: Elo-scale rating; Glicko-2: rating; TrueSkill: mu. */
  readonly rating: number;
  /** 1 = best; ties share a rank. */
  readonly rank: number;
  readonly ci: Interval | null;
  readonly rankCi: Interval | null;
  /** Glicko-2 rating deviation. */
  readonly rd?: number;
  /** Glicko-2 volatility. */
  readonly volatility?: number;
  /** TrueSkill sigma. */
  readonly sigma?: number;
  /** Bradley-Terry strength (geometric mean 1). */
  readonly strength?: number;
}

export interface SystemRatings {
  readonly system: RatingSystem;
  /** Best first. */
  readonly players: readonly PlayerRating[];
  /** Bradley-Terry: the maximum likelihood estimate, or the MAP where no MLE exists (an unbeaten or winless group). */
  readonly estimate?: "mle" | "map";
  /** Bradley-Terry: whether the point fit converged within its iterations and its share of `bradleyTerryWork`. */
  readonly converged?: boolean;
}

export interface TournamentRatings {
  readonly games: number;
  readonly players: readonly string[];
  readonly systems: Partial<Record<RatingSystem, SystemRatings>>;
  readonly transitivity: TransitivityReport & {
    /** Per system: does its ranking order every decided head-to-head pair as the majority does? */
    readonly agreement: Partial<Record<RatingSystem, MajorityAgreement>>;
  };
  readonly bootstrap: { readonly samples: number; readonly confidence: number; readonly seed: number } | null;
}

type Extras = Pick<PlayerRating, "rd" | "volatility" | "sigma" | "strength">;

interface SystemRun {
  /** Full ratings of the given games, with the system's extra fields. */
  point(games: readonly Game[]): Map<string, { rating: number } & Extras>;
  /** Which estimate the last point fit was, and whether it converged, for systems that fit by iterating. */
  estimate?(): "mle" | "map";
  converged?(): boolean;
  /** Just the ratings, for resamples. */
  sample(games: readonly Game[]): Map<string, number>;
}

function systemRun(system: RatingSystem, players: readonly string[], options: RateTournamentOptions, fits: number): SystemRun {
  const ratingsOnly = <T extends { rating: number }>(map: Map<string, T>) => new Map([...map].map(([p, r]) => [p, r.rating]));
  switch (system) {
    case "elo": {
      const rate = (games: readonly Game[]) => rateElo(games, { ...options.elo, players });
      return { point: (games) => new Map([...rate(games)].map(([p, rating]) => [p, { rating }])), sample: rate };
    }
    case "bradleyTerry": {
      let warmStart: Map<string, number> | undefined;
      let estimate: "mle" | "map" = "mle";
      let converged = true;
      const work = options.bradleyTerryWork ?? Infinity;
      const pointBudget = fits > 1 ? work / 2 : work;
      const sampleBudget = fits > 1 ? work / 2 / (fits - 1) : work;
      const point = (games: readonly Game[]) => {
        const fit = fitBradleyTerry(games, { ...options.bradleyTerry, players, workBudget: pointBudget });
        estimate = fit.estimate;
        converged = fit.converged;
        // Resamples start from the point fit: same optimum, fewer iterations.
        warmStart = new Map([...fit.ratings].map(([p, r]) => [p, r.strength]));
        return fit.ratings;
      };
      // 1e-7 in log-strength is 4e-5 rating points, far below any interval's resolution.
      const sampleTolerance = Math.max(options.bradleyTerry?.tolerance ?? 0, 1e-7);
      const sample = (games: readonly Game[]) =>
        ratingsOnly(
          fitBradleyTerry(games, {
            ...options.bradleyTerry,
            players,
            initialStrengths: warmStart,
            tolerance: sampleTolerance,
            workBudget: sampleBudget,
          }).ratings,
        );
      return { point, sample, estimate: () => estimate, converged: () => converged };
    }
    case "glicko2": {
      const rate = (games: readonly Game[]) => rateGlicko2(ratingPeriods(games), { ...options.glicko2, players });
      return { point: rate, sample: (games) => ratingsOnly(rate(games)) };
    }
    case "trueskill": {
      const rate = (games: readonly Game[]) =>
        new Map([...rateTrueSkill(games, { ...options.trueskill, players })].map(([p, r]) => [p, { rating: r.mu, sigma: r.sigma }]));
      return { point: rate, sample: (games) => ratingsOnly(rate(games)) };
    }
    default:
      throw new RangeError(`unknown rating system ${JSON.stringify(system satisfies never)}`);
  }
}

export function rateTournament(games: readonly Game[], options: RateTournamentOptions = {}): TournamentRatings {
  games.forEach(validateGame);
  const systems = [...new Set(options.systems ?? RATING_SYSTEMS)];
  for (const system of systems) {
    if (!RATING_SYSTEMS.includes(system)) throw new RangeError(`unknown rating system ${JSON.stringify(system)}`);
  }
  const bootstrap = options.bootstrap === false ? null : withDefaults(BOOTSTRAP_DEFAULTS, options.bootstrap ?? {});
  const players = playersOf(games);
  const majorities = pairwiseMajorities(games);
  const agreement: Partial<Record<RatingSystem, MajorityAgreement>> = {};
  const results: Partial<Record<RatingSystem, SystemRatings>> = {};

  for (const system of systems) {
    const run = systemRun(system, players, options, 1 + (bootstrap && games.length > 0 ? bootstrap.samples : 0));
    const point = run.point(games);
    const ratings = new Map([...point].map(([p, r]) => [p, r.rating]));
    const ranks = rankByRating(ratings);
    // Each system gets the same seed, hence the same resamples: intervals are comparable across systems.
    const intervals = bootstrap && games.length > 0 ? bootstrapRatings(games, run.sample, bootstrap) : null;
    const rows: PlayerRating[] = [...point].map(([player, { rating, ...extras }]) => ({
      player,
      rating,
      rank: ranks.get(player)!,
      ci: intervals?.ratings.get(player) ?? null,
      rankCi: intervals?.ranks.get(player) ?? null,
      ...extras,
    }));
    rows.sort((x, y) => x.rank - y.rank || (x.player < y.player ? -1 : x.player > y.player ? 1 : 0));
    results[system] = {
      system,
      players: rows,
      ...(run.estimate ? { estimate: run.estimate() } : {}),
      ...(run.converged ? { converged: run.converged() } : {}),
    };
    agreement[system] = majorityAgreement(majorities, ratings);
  }

  return {
    games: games.length,
    players,
    systems: results,
    transitivity: { ...transitivityReport(games), agreement },
    bootstrap,
  };
}
