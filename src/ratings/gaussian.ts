// Standard normal pdf, cdf and quantile for TrueSkill, accurate to ~1e-15 relative in the far
// tails: TrueSkill divides pdf by cdf at arguments like -10 (a 2900-point gap with beta 200), where
// "1 - something" formulas would return 0 and the update would be NaN.

const SQRT2 = Math.SQRT2;
const INV_SQRT_PI = 1 / Math.sqrt(Math.PI);

export function normalPdf(x: number): number {
  return Math.exp(-0.5 * x * x) / Math.sqrt(2 * Math.PI);
}

/**
 * Complementary error function.
 * |x| < 2.5: erf by the everywhere-positive series erf(x) = 2/sqrt(pi) e^{-x^2} sum 2^n x^{2n+1} /
 * (2n+1)!! (Abramowitz & Stegun 7.1.6), which has no cancellation; x >= 2.5: the continued
 * fraction of A&S 7.1.14 evaluated by the modified Lentz method, which keeps relative precision
 * however small erfc gets.
 */
export function erfc(x: number): number {
  if (Number.isNaN(x)) return NaN;
  if (x < 0) return 2 - erfc(-x);
  if (x < 2.5) return 1 - erfSeries(x);
  return erfcContinuedFraction(x);
}

function erfSeries(x: number): number {
  const x2 = x * x;
  let term = x;
  let sum = x;
  for (let n = 0; n < 200; n++) {
    term *= (2 * x2) / (2 * n + 3);
    sum += term;
    if (term < sum * 1e-17) break;
  }
  return 2 * INV_SQRT_PI * Math.exp(-x2) * sum;
}

// erfc(x) = e^{-x^2}/sqrt(pi) * 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + 2/(x + ...))))).
function erfcContinuedFraction(x: number): number {
  const tiny = 1e-300;
  let f = x;
  let c = x;
  let d = 0;
  for (let n = 1; n < 500; n++) {
    const a = n / 2;
    d = x + a * d;
    d = d === 0 ? tiny : d;
    c = x + a / c;
    c = c === 0 ? tiny : c;
    d = 1 / d;
    const step = c * d;
    f *= step;
    if (Math.abs(step - 1) < 1e-16) break;
  }
  return (Math.exp(-x * x) * INV_SQRT_PI) / f;
}

export function normalCdf(x: number): number {
  return 0.5 * erfc(-x / SQRT2);
}

/**
 * Quantile of the standard normal: Acklam's rational approximation as a starting point (relative
 * error < 1.2e-9), polished with Newton steps on the accurate cdf above.
 */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) {
    if (p === 0) return -Infinity;
    if (p === 1) return Infinity;
    throw new RangeError(`quantile needs 0 <= p <= 1, got ${p}`);
  }
  // Work in the lower tail: 1 - p is exact for p >= 0.5 (Sterbenz), and cdf(x) - p keeps its
  // precision there, while near 1 it would cancel.
  if (p > 0.5) return -normalQuantile(1 - p);
  let x = acklam(p);
  for (let i = 0; i < 3; i++) {
    const pdf = normalPdf(x);
    if (pdf === 0) break;
    const step = (normalCdf(x) - p) / pdf;
    x -= step;
    if (Math.abs(step) < 1e-15 * Math.max(1, Math.abs(x))) break;
  }
  return x;
}

function acklam(p: number): number {
  const a = [-3.969683028665376e1, 2.209460984245205e2, -2.759285104469687e2, 1.38357751867269e2, -3.066479806614716e1, 2.506628277459239];
  const b = [-5.447609879822406e1, 1.615858368580409e2, -1.556989798598866e2, 6.680131188771972e1, -1.328068155288572e1];
  const c = [-7.784894002430293e-3, -3.223964580411365e-1, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [7.784695709041462e-3, 3.224671290700398e-1, 2.445134137142996, 3.754408661907416];
  const low = 0.02425;
  if (p < low || p > 1 - low) {
    const q = Math.sqrt(-2 * Math.log(p < low ? p : 1 - p));
    const x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
    return p < low ? x : -x;
  }
  const q = p - 0.5;
  const r = q * q;
  return (
    ((((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q) /
    (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1)
  );
}
