// Seeded percentile-bootstrap confidence intervals.
//
// The units resampled are whatever is independent in the data: whole questions (clusters of
// answers) for question-level statistics, because answers to one question share its difficulty
// and its reference; examinees for exam-level statistics. Resampling answers one by one would
// pretend there were thousands of independent observations and give intervals that are too narrow.
//
// Several statistics are estimated from the same resamples, so intervals of related numbers (the
// first-round and later-round correlations and their difference) come from the same draws, and
// the costly part of a resample (gathering its answers) is done once.

import { seededRandom } from "../random/seeded";

export interface BootstrapOptions {
  /** Number of resamples. Default 1000. */
  resamples?: number;
  /** Coverage of the interval, in (0, 1). Default 0.95. */
  confidence?: number;
  /** The seed of the resampling (src/random/seeded.ts); the same seed gives the same intervals. Default 1. */
  seed?: number;
}

export const defaultBootstrap = { resamples: 1000, confidence: 0.95, seed: 1 } as const;

export interface ConfidenceInterval {
  low: number;
  high: number;
  confidence: number;
  /** Resamples in which the statistic was defined; the percentiles are taken over these. */
  definedResamples: number;
  /**
   * Resamples in which the statistic was undefined (e.g. every drawn question had constant human
   * scores). The interval is conditional on definedness; a large count means it is unreliable.
   */
  undefinedResamples: number;
}

export type Statistics<K extends string> = Record<K, number | null>;

/**
 * Quantile of sorted values by linear interpolation between order statistics (Hyndman and Fan's
 * type 7, the default of R and NumPy), so results match what an analyst would recompute.
 */
export function quantileOfSorted(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) throw new RangeError("quantile of no values");
  const position = (sorted.length - 1) * p;
  const below = Math.floor(position);
  const above = Math.min(below + 1, sorted.length - 1);
  return sorted[below] + (position - below) * (sorted[above] - sorted[below]);
}

/** Fills in defaults and rejects settings that would make the intervals meaningless. */
export function resolveBootstrapOptions(options: BootstrapOptions = {}): Required<BootstrapOptions> {
  const resamples = options.resamples ?? defaultBootstrap.resamples;
  const confidence = options.confidence ?? defaultBootstrap.confidence;
  const seed = options.seed ?? defaultBootstrap.seed;
  if (!Number.isInteger(resamples) || resamples < 1) throw new RangeError(`resamples must be a positive integer, got ${resamples}`);
  if (!(confidence > 0 && confidence < 1)) throw new RangeError(`confidence must lie in (0, 1), got ${confidence}`);
  if (!Number.isInteger(seed)) throw new RangeError(`seed must be an integer, got ${seed}`);
  return { resamples, confidence, seed };
}

/**
 * Percentile intervals for several statistics of the same units, computed on the same resamples.
 * `statistics` receives a resample (units drawn with replacement, as many as there are units) and
 * returns each statistic's value, or null where it is undefined. A statistic that is undefined in
 * every resample gets a null interval. With no units at all every interval is null; `statistics`
 * is then called once with an empty resample, only to learn the statistics' names.
 */
export function bootstrapIntervals<T, K extends string>(
  units: readonly T[],
  statistics: (resample: readonly T[]) => Statistics<K>,
  options: BootstrapOptions = {},
): Record<K, ConfidenceInterval | null> {
  const { resamples, confidence, seed } = resolveBootstrapOptions(options);
  const draws = new Map<K, number[]>();
  const undefinedCounts = new Map<K, number>();
  if (units.length > 0) {
    const random = seededRandom(seed);
    const resample: T[] = new Array(units.length);
    for (let r = 0; r < resamples; r++) {
      for (let i = 0; i < units.length; i++) resample[i] = units[random.nextInt(units.length)];
      const values = statistics(resample);
      for (const name of Object.keys(values) as K[]) {
        const value = values[name];
        if (!draws.has(name)) {
          draws.set(name, []);
          undefinedCounts.set(name, 0);
        }
        if (value === null || !Number.isFinite(value)) undefinedCounts.set(name, undefinedCounts.get(name)! + 1);
        else draws.get(name)!.push(value);
      }
    }
  }

  const names = units.length > 0 ? [...draws.keys()] : (Object.keys(statistics([])) as K[]);
  const alpha = 1 - confidence;
  const intervals = {} as Record<K, ConfidenceInterval | null>;
  for (const name of names) {
    const values = Float64Array.from(draws.get(name) ?? []).sort();
    intervals[name] =
      values.length === 0
        ? null
        : {
            low: quantileOfSorted(values, alpha / 2),
            high: quantileOfSorted(values, 1 - alpha / 2),
            confidence,
            definedResamples: values.length,
            undefinedResamples: undefinedCounts.get(name) ?? 0,
          };
  }
  return intervals;
}

/** The single-statistic form of bootstrapIntervals. */
export function bootstrapInterval<T>(
  units: readonly T[],
  statistic: (resample: readonly T[]) => number | null,
  options: BootstrapOptions = {},
): ConfidenceInterval | null {
  return bootstrapIntervals(units, (resample) => ({ value: statistic(resample) }), options).value;
}
