// Numerical solvers for the Bradley-Terry posterior mode (see bradley-terry.ts for the model and
// the prior). Both work on log-strengths theta and maximise
//   l(theta) = sum_pairs [ s_ij log sigma(theta_i - theta_j) + s_ji log sigma(theta_j - theta_i) ]
//            + (prior / 2) sum_i [ log sigma(theta_i) + log sigma(-theta_i) ]
// where s_ij is i's points against j (wins + draws / 2) and sigma the logistic function; the
// last line is the virtual opponent of strength 1 (theta 0) that each player half beats.
//
// - Newton with backtracking: quadratic convergence, about 5-10 steps, O(n^3) per step for the
//   dense Cholesky solve. Used up to NEWTON_MAX_PLAYERS, which covers every tournament we expect
//   and makes the 1000 refits of a bootstrap cheap.
// - MM (Zermelo 1929; Hunter 2004 eq. 3), O(pairs) per sweep but linearly convergent, often
//   hundreds of sweeps: the fallback for large player sets.

export interface BradleyTerryData {
  readonly n: number;
  /** Each unordered pair once: i, j, games between them, i's points. */
  readonly pairs: readonly { readonly i: number; readonly j: number; readonly games: number; readonly scoreI: number }[];
  /** Points of each player over all its games (without the prior). */
  readonly points: Float64Array;
  readonly prior: number;
}

export interface SolverResult {
  readonly theta: Float64Array;
  readonly iterations: number;
  readonly converged: boolean;
}

export const NEWTON_MAX_PLAYERS = 300;

const logSigmoid = (x: number) => (x >= 0 ? -Math.log1p(Math.exp(-x)) : x - Math.log1p(Math.exp(x)));
const sigmoid = (x: number) => (x >= 0 ? 1 / (1 + Math.exp(-x)) : Math.exp(x) / (1 + Math.exp(x)));

function logPosterior(data: BradleyTerryData, theta: Float64Array): number {
  let total = 0;
  for (const { i, j, games, scoreI } of data.pairs) {
    const d = theta[i] - theta[j];
    total += scoreI * logSigmoid(d) + (games - scoreI) * logSigmoid(-d);
  }
  if (data.prior > 0) for (const t of theta) total += (data.prior / 2) * (logSigmoid(t) + logSigmoid(-t));
  return total;
}

export function solveNewton(data: BradleyTerryData, start: Float64Array, tolerance: number, maxIterations: number): SolverResult {
  const { n, prior } = data;
  const theta = Float64Array.from(start);
  // Without a prior the posterior is flat along theta + c; fix the last player at 0 (the gauge)
  // and solve for the other n - 1, which is well posed once the MLE exists.
  const free = prior > 0 ? n : n - 1;
  if (prior === 0) for (let i = 0; i < n; i++) theta[i] -= start[n - 1];
  let current = logPosterior(data, theta);
  for (let iteration = 1; iteration <= maxIterations; iteration++) {
    const gradient = new Float64Array(n);
    const curvature = new Float64Array(n * n); // minus the Hessian
    for (let i = 0; i < n; i++) gradient[i] = data.points[i];
    for (const { i, j, games } of data.pairs) {
      const p = sigmoid(theta[i] - theta[j]);
      gradient[i] -= games * p;
      gradient[j] -= games * (1 - p);
      const c = games * p * (1 - p);
      curvature[i * n + i] += c;
      curvature[j * n + j] += c;
      curvature[i * n + j] -= c;
      curvature[j * n + i] -= c;
    }
    if (prior > 0) {
      for (let i = 0; i < n; i++) {
        const s = sigmoid(theta[i]);
        gradient[i] += prior / 2 - prior * s;
        curvature[i * n + i] += prior * s * (1 - s);
      }
    }
    const step = choleskySolve(curvature, n, free, gradient);
    if (step === null) return { theta, iterations: iteration, converged: false };
    // Backtracking (Armijo) keeps every step an ascent step, e.g. for an almost-undefeated player
    // whose curvature is tiny and whose full Newton step would overshoot.
    // The full Newton step measures the distance to the optimum; a damped step would not.
    let fullStep = 0;
    let slope = 0;
    for (let i = 0; i < free; i++) {
      fullStep = Math.max(fullStep, Math.abs(step[i]));
      slope += gradient[i] * step[i];
    }
    // Small steps are inside the quadratic region and taken whole: there the change in l is
    // below floating-point resolution and a line search would stall.
    let t = 1;
    let candidate = Float64Array.from(theta, (x, i) => (i < free ? x + step[i] : x));
    let value = logPosterior(data, candidate);
    if (fullStep > 1e-3) {
      for (let halvings = 0; halvings < 60 && !(value >= current + 1e-4 * t * slope); halvings++) {
        t /= 2;
        candidate = Float64Array.from(theta, (x, i) => (i < free ? x + t * step[i] : x));
        value = logPosterior(data, candidate);
      }
    }
    theta.set(candidate);
    current = value;
    if (fullStep < tolerance) return { theta, iterations: iteration, converged: true };
  }
  return { theta, iterations: maxIterations, converged: false };
}

// Solves A x = b for the leading `size` x `size` block of the n x n matrix A (row-major).
// Returns null if A is not positive definite there.
function choleskySolve(a: Float64Array, n: number, size: number, b: Float64Array): Float64Array | null {
  const l = new Float64Array(size * size);
  for (let i = 0; i < size; i++) {
    for (let j = 0; j <= i; j++) {
      let sum = a[i * n + j];
      for (let k = 0; k < j; k++) sum -= l[i * size + k] * l[j * size + k];
      if (i === j) {
        if (!(sum > 0)) return null;
        l[i * size + i] = Math.sqrt(sum);
      } else {
        l[i * size + j] = sum / l[j * size + j];
      }
    }
  }
  const y = new Float64Array(size);
  for (let i = 0; i < size; i++) {
    let sum = b[i];
    for (let k = 0; k < i; k++) sum -= l[i * size + k] * y[k];
    y[i] = sum / l[i * size + i];
  }
  const x = new Float64Array(size);
  for (let i = size - 1; i >= 0; i--) {
    let sum = y[i];
    for (let k = i + 1; k < size; k++) sum -= l[k * size + i] * x[k];
    x[i] = sum / l[i * size + i];
  }
  return x;
}

export function solveMM(data: BradleyTerryData, start: Float64Array, tolerance: number, maxIterations: number): SolverResult {
  const { n, prior } = data;
  const strength = Float64Array.from(start, Math.exp);
  const opponents: [number, number][][] = Array.from({ length: n }, () => []);
  for (const { i, j, games } of data.pairs) {
    opponents[i].push([j, games]);
    opponents[j].push([i, games]);
  }
  const wins = Float64Array.from(data.points, (w) => w + prior / 2);
  let iterations = 0;
  let converged = n === 0;
  while (!converged && iterations < maxIterations) {
    iterations++;
    let largestStep = 0;
    // Gauss-Seidel order (each update sees the others' newest values) is still an MM step for the
    // block being updated and needs fewer sweeps than the simultaneous form.
    for (let i = 0; i < n; i++) {
      let denominator = prior / (strength[i] + 1);
      for (const [j, count] of opponents[i]) denominator += count / (strength[i] + strength[j]);
      if (denominator === 0) continue; // no games and no prior: nothing to learn, keep the start
      const updated = wins[i] / denominator;
      largestStep = Math.max(largestStep, Math.abs(Math.log(updated / strength[i])));
      strength[i] = updated;
    }
    // Real games fix only strength ratios; the common factor is fixed by the prior alone, and MM
    // crawls along that direction (rate ~ prior / games per sweep). Solving for the common factor
    // exactly after each sweep is a block-coordinate ascent step that removes the crawl. Without
    // a prior, pin the geometric mean instead so the iterates cannot drift.
    if (prior === 0) normaliseGeometricMean(strength);
    else largestStep = Math.max(largestStep, Math.abs(rescaleToPrior(strength)));
    converged = largestStep < tolerance;
  }
  return { theta: Float64Array.from(strength, Math.log), iterations, converged };
}

// Maximises the prior term over a common factor e^c: solves sum_i p_i e^c / (p_i e^c + 1) = n / 2
// by damped Newton (the left side increases with c). Returns c.
function rescaleToPrior(strength: Float64Array): number {
  let shift = 0;
  for (let iteration = 0; iteration < 100; iteration++) {
    let excess = -strength.length / 2;
    let slope = 0;
    const factor = Math.exp(shift);
    for (const p of strength) {
      const won = (p * factor) / (p * factor + 1);
      excess += won;
      slope += won * (1 - won);
    }
    if (slope === 0) break;
    const step = Math.max(-1, Math.min(1, -excess / slope));
    shift += step;
    if (Math.abs(step) < 1e-14) break;
  }
  const factor = Math.exp(shift);
  for (let i = 0; i < strength.length; i++) strength[i] *= factor;
  return shift;
}

function normaliseGeometricMean(strength: Float64Array): void {
  let sumLog = 0;
  for (const p of strength) sumLog += Math.log(p);
  const factor = Math.exp(-sumLog / strength.length);
  for (let i = 0; i < strength.length; i++) strength[i] *= factor;
}
