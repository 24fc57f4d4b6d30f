import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus";
import { uniformFloat64 } from "pure-rand/distribution/uniformFloat64";
import { uniformInt } from "pure-rand/distribution/uniformInt";

// The one seeded generator of the project: the tournament's draws, the ratings' bootstrap, benchmark
// schedules and test inputs all come from pure-rand's xoroshiro128+, so a seed gives the same numbers in
// a Worker and in Node (Math.random cannot be seeded).

/** Mixes a seed and a stream number (splitmix-style) so that nearby seeds give unrelated streams. */
function mix(seed: number, stream: number): number {
  let h = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(stream + 1, 0xc2b2ae35);
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  return h | 0;
}

/**
 * One independent random stream per (seed, round): a round's pairing then never depends on how many
 * numbers an earlier round drew, so replaying recorded results always redraws the same pairs.
 */
export function streamFor(seed: number, round: number) {
  return xoroshiro128plus(mix(seed, round));
}

/** A seeded Fisher-Yates shuffle; returns a new array. */
export function shuffle<T>(items: readonly T[], seed: number, round: number): T[] {
  const rng = streamFor(seed, round);
  const out = items.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = uniformInt(rng, 0, i);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** A random seed for callers that did not choose one (kept and reported, so a run can be repeated). */
export function randomSeed(): number {
  return crypto.getRandomValues(new Uint32Array(1))[0] >>> 1;
}

export interface Random {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [0, n). */
  nextInt(n: number): number;
}

/** A stream of uniform draws from a seed; seeds may be any finite number (truncated, taken modulo 2^32). */
export function seededRandom(seed: number): Random {
  if (!Number.isFinite(seed)) throw new RangeError(`seed must be a finite number, got ${seed}`);
  const rng = xoroshiro128plus(mix(Math.trunc(seed) % 0x1_0000_0000, -1));
  return {
    next: () => uniformFloat64(rng),
    nextInt: (n: number) => uniformInt(rng, 0, n - 1),
  };
}

/** A standard normal draw (Box-Muller) from uniform draws: two of them, the first never 0. */
export function gaussian(next: () => number): number {
  return Math.sqrt(-2 * Math.log(Math.max(next(), 1e-12))) * Math.cos(2 * Math.PI * next());
}
