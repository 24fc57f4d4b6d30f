// Correlation coefficients between judge scores and human scores.
//
// Every coefficient returns `null` when it is undefined rather than NaN or 0, because a report must
// be able to say "not measurable here" (a question whose answers all got the same human score, a
// resample with one examinee) without that value silently dragging a mean towards zero:
//   - fewer than 2 pairs;
//   - either side constant (zero variance; for Kendall tau-b, every pair tied on that side).
// "Constant" is decided by exact equality of the inputs, not by a computed variance, so that
// [0.1, 0.1, 0.1] is constant even though its floating-point mean is not exactly 0.1.
//
// Inputs of different lengths or with non-finite values are caller bugs and throw a RangeError.

import { averageRanksOfCodes, levelCounts, rankCodes, type RankCodes } from "./ranks";

/** Throws on inputs that no coefficient should be asked about. */
function checkPairs(x: ArrayLike<number>, y: ArrayLike<number>): void {
  if (x.length !== y.length) {
    throw new RangeError(`correlation of sequences of different lengths (${x.length} and ${y.length})`);
  }
  for (let i = 0; i < x.length; i++) {
    if (!Number.isFinite(x[i]) || !Number.isFinite(y[i])) {
      throw new RangeError(`correlation input is not a finite number at index ${i}: (${x[i]}, ${y[i]})`);
    }
  }
}

function isConstant(values: ArrayLike<number>): boolean {
  for (let i = 1; i < values.length; i++) if (values[i] !== values[0]) return false;
  return true;
}

/** Rounding can push |r| a hair past 1 for perfectly (anti)correlated data. */
function clampUnit(r: number): number {
  return Math.max(-1, Math.min(1, r));
}

/**
 * Pearson's product-moment correlation r = cov(x, y) / (sd(x) sd(y)).
 * Two-pass (means first) so that scores with a large common offset, such as MQM sums, keep
 * their precision. Null for fewer than 2 pairs or a constant side.
 */
export function pearson(x: ArrayLike<number>, y: ArrayLike<number>): number | null {
  checkPairs(x, y);
  const n = x.length;
  if (n < 2 || isConstant(x) || isConstant(y)) return null;
  let sumX = 0;
  let sumY = 0;
  for (let i = 0; i < n; i++) {
    sumX += x[i];
    sumY += y[i];
  }
  const meanX = sumX / n;
  const meanY = sumY / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = x[i] - meanX;
    const dy = y[i] - meanY;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  // Distinct but nearly equal values can still underflow to a zero spread.
  const spread = Math.sqrt(sxx * syy);
  return spread > 0 ? clampUnit(sxy / spread) : null;
}

/**
 * Spearman's rank correlation rho: Pearson's r on average ranks (ties share their mean rank).
 * Null for fewer than 2 pairs or a constant side.
 */
export function spearman(x: ArrayLike<number>, y: ArrayLike<number>): number | null {
  checkPairs(x, y);
  return spearmanOfCodes(rankCodes(x), rankCodes(y));
}

/** Spearman's rho from rank codes (see ranks.ts); the scores themselves are not needed. */
export function spearmanOfCodes(x: RankCodes, y: RankCodes): number | null {
  if (x.codes.length !== y.codes.length) throw new RangeError("rank codes of different lengths");
  if (x.codes.length < 2 || isConstant(x.codes) || isConstant(y.codes)) return null;
  return pearson(averageRanksOfCodes(x), averageRanksOfCodes(y));
}

/** Pairs within levels: sum over levels of c(c-1)/2. */
function tiedPairs(counts: Int32Array): number {
  let tied = 0;
  for (let level = 0; level < counts.length; level++) tied += (counts[level] * (counts[level] - 1)) / 2;
  return tied;
}

/** Positions 0..n-1 ordered by code, stably (one counting-sort pass). */
function stableOrderByCode(codes: Int32Array, counts: Int32Array, positions: Int32Array): Int32Array {
  const start = new Int32Array(counts.length);
  for (let level = 1; level < counts.length; level++) start[level] = start[level - 1] + counts[level - 1];
  const ordered = new Int32Array(positions.length);
  for (let k = 0; k < positions.length; k++) ordered[start[codes[positions[k]]]++] = positions[k];
  return ordered;
}

/**
 * Kendall's tau-b, the tie-corrected tau:
 *   (concordant - discordant) / sqrt((n0 - tiesX) (n0 - tiesY)),  n0 = n(n-1)/2,
 * where tiesX / tiesY are the pairs tied on x / on y (pairs tied on both count in each).
 * Null for fewer than 2 pairs or when every pair ties on one side.
 */
export function kendallTauB(x: ArrayLike<number>, y: ArrayLike<number>): number | null {
  checkPairs(x, y);
  return kendallTauBOfCodes(rankCodes(x), rankCodes(y));
}

/**
 * Kendall's tau-b from rank codes, in O(n log levels), after Knight (1966): order the pairs by x
 * then y (two counting-sort passes), then every earlier pair with a larger y is discordant, which
 * a Fenwick tree over the y levels counts. Pairs tied on x come out in ascending y, so they are
 * never counted as discordant, and equal y is not "larger", so y ties are not either.
 */
export function kendallTauBOfCodes(x: RankCodes, y: RankCodes): number | null {
  const n = x.codes.length;
  if (y.codes.length !== n) throw new RangeError("rank codes of different lengths");
  if (n < 2) return null;
  const countsX = levelCounts(x);
  const countsY = levelCounts(y);
  const totalPairs = (n * (n - 1)) / 2;
  const untiedX = totalPairs - tiedPairs(countsX);
  const untiedY = totalPairs - tiedPairs(countsY);
  if (untiedX === 0 || untiedY === 0) return null;

  const identity = new Int32Array(n);
  for (let i = 0; i < n; i++) identity[i] = i;
  const order = stableOrderByCode(x.codes, countsX, stableOrderByCode(y.codes, countsY, identity));

  let tiedXY = 0;
  let run = 1;
  const fenwick = new Int32Array(y.levels + 1);
  let discordant = 0;
  for (let k = 0; k < n; k++) {
    const position = order[k];
    const level = y.codes[position];
    if (k > 0) {
      const previous = order[k - 1];
      if (x.codes[previous] === x.codes[position] && y.codes[previous] === level) run++;
      else {
        tiedXY += (run * (run - 1)) / 2;
        run = 1;
      }
    }
    let atOrBelow = 0;
    for (let i = level + 1; i > 0; i -= i & -i) atOrBelow += fenwick[i];
    discordant += k - atOrBelow;
    for (let i = level + 1; i <= y.levels; i += i & -i) fenwick[i]++;
  }
  tiedXY += (run * (run - 1)) / 2;

  const concordantMinusDiscordant = untiedX + untiedY - totalPairs + tiedXY - 2 * discordant;
  return clampUnit(concordantMinusDiscordant / Math.sqrt(untiedX * untiedY));
}
