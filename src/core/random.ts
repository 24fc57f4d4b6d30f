import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus";
import { uniformInt } from "pure-rand/distribution/uniformInt";

/**
 * One independent random stream per (seed, round): a round's pairing then never depends on how many
 * numbers an earlier round drew, so replaying recorded results always redraws the same pairs.
 */
export function streamFor(seed: number, round: number) {
  // splitmix-style mixing so that nearby seeds and rounds give unrelated streams
  let h = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(round + 1, 0xc2b2ae35);
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  return xoroshiro128plus(h | 0);
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
