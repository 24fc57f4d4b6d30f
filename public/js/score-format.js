// @ts-check
// Scores as every page prints them: at most two decimals, no trailing zeros and no trailing dot.
// Rounding first and printing the number (not trimming the text) is what keeps 0.998 from reading
// "1." (a receipt once said "1. of 5 points").

/**
 * A score, a bound or a coefficient to at most two decimals; `missing` where there is none.
 * @param {number | null | undefined} x
 * @param {string} [missing]
 */
export function formatScore(x, missing = "–") {
  if (x === null || x === undefined) return missing;
  // String(-0) is "0", so -0.001 does not read "-0"
  return String(Number(x.toFixed(2)));
}
