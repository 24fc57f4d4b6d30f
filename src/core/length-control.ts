// Length-controlled scores (issue 30, item 2), after AlpacaEval's length-controlled win rate: a logistic
// model of the judge's preference with a length term, fitted on the evaluation's own matches,
//   P(A beats B) = σ(θ_A − θ_B + β · tanh(ln(len_A / len_B))),
// then each match's scores read with the length term set to zero. Pure and deterministic: a few Newton
// steps from zero with a small ridge penalty (so a knockout's tree of matches, which θ alone could fit
// exactly, still has one answer), no randomness, the same figures on every read.

/** A decided or drawn pairwise match with its answers' lengths in characters. */
export interface LengthMatch {
  a: string;
  b: string;
  scoreA: number;
  scoreB: number;
  lengthA: number;
  lengthB: number;
}

export interface LengthControl {
  /** β: the judge's log-odds for the longer answer per unit of tanh(ln(length ratio)); 0 when not fitted. */
  coefficient: number;
  fitted: boolean;
  /** Why not fitted. */
  reason?: string;
  /** The length term in score points at a unit of the feature (β times the points a log-odd is worth here); 0 when not fitted. */
  points: number;
}

/** Matches with unequal scores needed before a fit is tried. */
export const MIN_DECIDED_MATCHES = 8;
/** The ridge penalty on every parameter (θ and β): a N(0, 1/0.5) prior, small beside a dozen matches. */
export const RIDGE = 0.5;
const STEPS = 50;

/** The length feature of a pair: tanh of the log ratio, 0 for equal lengths, bounded for extreme ones. */
export function lengthFeature(lengthA: number, lengthB: number): number {
  return Math.tanh(Math.log(Math.max(lengthA, 1) / Math.max(lengthB, 1)));
}

/**
 * The fitted model: each answer's θ and the length coefficient β, by Newton's method on the ridge
 * penalised log-likelihood of the decided matches (a draw says nothing about a preference and is left out).
 */
export function fitLengthModel(
  ids: readonly string[],
  matches: readonly LengthMatch[],
  ridge = RIDGE,
): { theta: Map<string, number>; beta: number; decided: number } {
  const index = new Map(ids.map((id, i) => [id, i]));
  const rows = matches
    .filter((m) => m.scoreA !== m.scoreB && index.has(m.a) && index.has(m.b))
    .map((m) => ({ i: index.get(m.a)!, j: index.get(m.b)!, f: lengthFeature(m.lengthA, m.lengthB), y: m.scoreA > m.scoreB ? 1 : 0 }));
  const n = ids.length;
  const w = new Array<number>(n + 1).fill(0); // θ_0..θ_{n-1}, β
  for (let step = 0; step < STEPS; step++) {
    const g = w.map((x) => ridge * x);
    const h = Array.from({ length: n + 1 }, (_, r) => Array.from({ length: n + 1 }, (_, c) => (r === c ? ridge : 0)));
    for (const { i, j, f, y } of rows) {
      const p = sigmoid(w[i] - w[j] + w[n] * f);
      const x: [number, number][] = [
        [i, 1],
        [j, -1],
        [n, f],
      ];
      for (const [r, xr] of x) {
        g[r] += (p - y) * xr;
        for (const [c, xc] of x) h[r][c] += p * (1 - p) * xr * xc;
      }
    }
    const delta = solve(h, g);
    let largest = 0;
    for (let k = 0; k <= n; k++) {
      w[k] -= delta[k];
      largest = Math.max(largest, Math.abs(delta[k]));
    }
    if (largest < 1e-10) break;
  }
  return { theta: new Map(ids.map((id, i) => [id, w[i]])), beta: w[n], decided: rows.length };
}

/**
 * Each answer's score with the length term taken out, and the fit behind it. Each match's length term
 * in log-odds (β·f) is put in points with the slope of the match score differences on the fitted
 * log-odds (through zero), half taken from one answer's match score and half given to the other's; an
 * answer's controlled score is its score plus the mean of what its matches moved (its score is the mean
 * of its match scores, so this is that mean re-read), held to [0, maxScore]. With fewer than
 * MIN_DECIDED_MATCHES decided matches, or no usable slope, nothing is fitted and the raw scores stand.
 */
export function lengthControlledScores(
  answers: readonly { id: string; score: number | null }[],
  matches: readonly LengthMatch[],
  maxScore: number,
): { control: LengthControl; scores: Map<string, number | null> } {
  const raw = new Map(answers.map((a) => [a.id, a.score]));
  const decided = matches.filter((m) => m.scoreA !== m.scoreB).length;
  if (decided < MIN_DECIDED_MATCHES)
    return {
      control: {
        coefficient: 0,
        points: 0,
        fitted: false,
        reason: `${decided} decided matches; the fit needs at least ${MIN_DECIDED_MATCHES}`,
      },
      scores: raw,
    };
  const ids = answers.map((a) => a.id);
  const { theta, beta } = fitLengthModel(ids, matches);
  const eta = (m: LengthMatch) => theta.get(m.a)! - theta.get(m.b)! + beta * lengthFeature(m.lengthA, m.lengthB);
  let sxy = 0;
  let sxx = 0;
  for (const m of matches) {
    const e = eta(m);
    sxy += (m.scoreA - m.scoreB) * e;
    sxx += e * e;
  }
  const perLogit = sxx > 0 ? sxy / sxx : 0;
  if (!(perLogit > 0) || !Number.isFinite(beta))
    return {
      control: { coefficient: 0, points: 0, fitted: false, reason: "the scores do not follow the fitted preferences" },
      scores: raw,
    };
  const moved = new Map<string, number[]>();
  for (const m of matches) {
    const shift = (perLogit * beta * lengthFeature(m.lengthA, m.lengthB)) / 2;
    moved.set(m.a, [...(moved.get(m.a) ?? []), -shift]);
    moved.set(m.b, [...(moved.get(m.b) ?? []), shift]);
  }
  const scores = new Map(
    answers.map((a) => {
      const shifts = moved.get(a.id) ?? [];
      if (a.score === null || shifts.length === 0) return [a.id, a.score];
      const controlled = a.score + shifts.reduce((s, x) => s + x, 0) / shifts.length;
      return [a.id, Math.min(maxScore, Math.max(0, controlled))];
    }),
  );
  return { control: { coefficient: beta, points: perLogit * beta, fitted: true }, scores };
}

function sigmoid(x: number): number {
  return x >= 0 ? 1 / (1 + Math.exp(-x)) : Math.exp(x) / (1 + Math.exp(x));
}

/** x with h·x = g, by Gaussian elimination with partial pivoting (h is positive definite: the ridge). */
function solve(h: number[][], g: number[]): number[] {
  const n = g.length;
  const a = h.map((row, i) => [...row, g[i]]);
  for (let c = 0; c < n; c++) {
    let pivot = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(a[r][c]) > Math.abs(a[pivot][c])) pivot = r;
    [a[c], a[pivot]] = [a[pivot], a[c]];
    for (let r = c + 1; r < n; r++) {
      const factor = a[r][c] / a[c][c];
      if (factor === 0) continue;
      for (let k = c; k <= n; k++) a[r][k] -= factor * a[c][k];
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let s = a[r][n];
    for (let k = r + 1; k < n; k++) s -= a[r][k] * x[k];
    x[r] = s / a[r][r];
  }
  return x;
}
