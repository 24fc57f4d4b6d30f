import { normalCdf, normalPdf } from "../ratings/gaussian";

/**
 * What the service reads from a judge whose belief about an answer is b, when it decides by the
 * judge's probabilities (src/judge/expected.ts), as the review model needs it. Pure.
 *
 * The judge writes b clamped to the scale and rounded to the step (w); its probabilities over the
 * scale's integers spread about b with its own width tau (the `spread` it reports with each call); the
 * service takes their expectation and holds it to w's cell [w - step/2, w + step/2]. At the top of the
 * scale the expectation falls below the top, since the probabilities have nowhere to go but down: a
 * judge sure of full marks, with tau one point on 0-5, is read 4.5, held to 4.75 where it wrote 5. A
 * model that expects such an answer to be read near 5 takes a reading of 4.4 for a true 4.4 and misses
 * that it is likely a 5 (issue 26, the quality bench's Mohler: docs/benchmarks.md).
 */
export function reading(b: number, tau: number, maxScore: number, step: number): number {
  const c = Math.min(maxScore, Math.max(0, b));
  const w = Math.min(maxScore, Math.max(0, Math.round(c / step) * step));
  const e = expectationAbout(c, tau, maxScore);
  return Math.min(Math.min(maxScore, w + step / 2), Math.max(Math.max(0, w - step / 2), e));
}

/**
 * The expectation of the judge's probabilities centred at c with width tau: on the integers 0..maxScore
 * (a score token each) for a scale of up to 20 points, as a normal truncated to the scale above that
 * (100 points: a continuum for this purpose).
 */
function expectationAbout(c: number, tau: number, maxScore: number): number {
  if (!(tau > 0)) return c;
  if (maxScore <= 20) {
    let total = 0;
    let sum = 0;
    for (let v = 0; v <= maxScore; v++) {
      const p = Math.exp(-((v - c) ** 2) / (2 * tau * tau));
      total += p;
      sum += p * v;
    }
    return total > 0 ? sum / total : c;
  }
  const lo = (0 - c) / tau;
  const hi = (maxScore - c) / tau;
  const mass = normalCdf(hi) - normalCdf(lo);
  return mass > 1e-12 ? c + (tau * (normalPdf(lo) - normalPdf(hi))) / mass : c;
}

/** Nodes and weights of the normal's expectation: 41 points on [-4, 4], weighted by the density. */
const NODES = (() => {
  const z = Array.from({ length: 41 }, (_, i) => -4 + (8 * i) / 40);
  const w = z.map((x) => Math.exp((-x * x) / 2));
  const total = w.reduce((a, b) => a + b, 0);
  return { z, w: w.map((x) => x / total) };
})();

/**
 * The mean reading of an answer whose true grade puts the judge's belief at mu on average, each call's
 * belief off by N(0, sigma^2): E[reading(mu + sigma Z)]. `read` is `reading` for the evaluation's judge
 * (`readingTable`'s in practice, the same to within its grid).
 */
export function meanReading(mu: number, sigma: number, read: (b: number) => number): number {
  if (!(sigma > 0)) return read(mu);
  let m = 0;
  for (let i = 0; i < NODES.z.length; i++) m += NODES.w[i] * read(mu + sigma * NODES.z[i]);
  return m;
}

/**
 * `reading` for one judge width, tabulated once on a fine grid of beliefs and interpolated: the review
 * asks it some 10^5 times per evaluation, each an exp() per scale point otherwise.
 */
export function readingTable(tau: number, maxScore: number, step: number): (b: number) => number {
  // beliefs from a scale below zero to a scale above the top: past them the reading is constant
  const points = 1200;
  const from = -maxScore;
  const width = (3 * maxScore) / points;
  const table = Float64Array.from({ length: points + 1 }, (_, k) => reading(from + k * width, tau, maxScore, step));
  return (b) => {
    const x = (b - from) / width;
    if (x <= 0) return table[0];
    if (x >= points) return table[points];
    const k = Math.floor(x);
    return table[k] + (x - k) * (table[k + 1] - table[k]);
  };
}
