// Order-preserving integer codes for scores, the common ground of the rank correlations.
//
// Spearman and Kendall only see which of two scores is larger or whether they tie, so they can
// work on small integer codes instead of the scores. Coding once and then ranking by counting is
// what keeps the bootstrap cheap: a resample of answers reuses the codes of the full data set
// (codes missing from the resample are merely empty levels), and needs no sorting at all.

/** Equal values share a code, smaller values get smaller codes, codes lie in 0..levels-1. */
export interface RankCodes {
  codes: Int32Array;
  levels: number;
}

/** Index of the first element of ascending `sorted` that is not below `value`. */
function lowerBound(sorted: Float64Array, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Dense codes of finite values: the number of distinct values below each one. */
export function rankCodes(values: ArrayLike<number>): RankCodes {
  const sorted = Float64Array.from(values).sort();
  let levels = 0;
  for (let k = 0; k < sorted.length; k++) {
    // -0 and 0 sort apart but are equal, so they share a level.
    if (k === 0 || sorted[k] !== sorted[levels - 1]) sorted[levels++] = sorted[k];
  }
  const distinct = sorted.subarray(0, levels);
  const codes = new Int32Array(values.length);
  for (let i = 0; i < values.length; i++) codes[i] = lowerBound(distinct, values[i]);
  return { codes, levels };
}

/** The same codes restricted to some positions (a subset or a resample, repeats allowed). */
export function selectCodes(ranked: RankCodes, positions: ArrayLike<number>): RankCodes {
  const codes = new Int32Array(positions.length);
  for (let i = 0; i < positions.length; i++) codes[i] = ranked.codes[positions[i]];
  return { codes, levels: ranked.levels };
}

/** How many values fall on each level. */
export function levelCounts({ codes, levels }: RankCodes): Int32Array {
  const counts = new Int32Array(levels);
  for (let i = 0; i < codes.length; i++) counts[codes[i]]++;
  return counts;
}

/**
 * Ranks 1..n of coded values, ties given the mean of the ranks they span (the "fractional"
 * ranking), which is what makes Spearman's rho equal Pearson's r on the ranks when there are ties.
 * A counting pass, O(n + levels).
 */
export function averageRanksOfCodes(ranked: RankCodes): Float64Array {
  const counts = levelCounts(ranked);
  const rankOfLevel = new Float64Array(ranked.levels);
  let below = 0;
  for (let level = 0; level < ranked.levels; level++) {
    // A level of c values below which `below` values lie takes ranks below+1..below+c.
    rankOfLevel[level] = below + (counts[level] + 1) / 2;
    below += counts[level];
  }
  const ranks = new Float64Array(ranked.codes.length);
  for (let i = 0; i < ranks.length; i++) ranks[i] = rankOfLevel[ranked.codes[i]];
  return ranks;
}

export function averageRanks(values: ArrayLike<number>): Float64Array {
  return averageRanksOfCodes(rankCodes(values));
}
