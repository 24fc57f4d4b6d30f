import { median } from "../metrics/median";

// Length-controlled scores (issue 30, item 2), after AlpacaEval's length-controlled win rate: a logistic
// model of the judge's preference with a length term, fitted on the evaluation's own matches,
//   P(A beats B) = σ(θ_A − θ_B + β · (ℓ_A − ℓ_B)),  ℓ = tanh(ln(length / the question's median length)),
// then each answer's score read with its length term set to zero: as if it were as long as the
// question's median answer. Pure and deterministic: a few Newton steps from zero with a small ridge
// penalty (so a knockout's tree of matches, which θ alone could fit exactly, still has one answer), no
// randomness, the same figures on every read.

/** A decided or drawn pairwise match: its answers and their match scores. */
export interface LengthMatch {
  a: string;
  b: string;
  scoreA: number;
  scoreB: number;
}

/** An answer with its score (null when it played no match) and its length in characters. */
export interface LengthAnswer {
  id: string;
  score: number | null;
  length: number;
}

export interface LengthControl {
  /** β: the judge's log-odds for an answer per unit of its length term ℓ; 0 when not fitted. */
  coefficient: number;
  fitted: boolean;
  /** Why not fitted. */
  reason?: string;
  /** The length term in score points at a unit of ℓ (β times the points a log-odd is worth here); 0 when not fitted. */
  points: number;
  /** The question's median answer length in characters, where ℓ is 0; absent when not fitted. */
  medianLength?: number;
}

/** Matches with unequal scores needed before a fit is tried. */
export const MIN_DECIDED_MATCHES = 8;
/** The ridge penalty on every parameter (θ and β): a N(0, 1/0.5) prior, small beside a dozen matches. */
export const RIDGE = 0.5;
const STEPS = 50;

/**
 * An answer's length term ℓ: tanh of the log of its length over the question's median length. 0 at the
 * median, ± equally for an answer twice or half as long, and bounded (an answer ten times longer weighs
 * little more than one three times longer).
 */
export function lengthTerm(length: number, medianLength: number): number {
  return Math.tanh(Math.log(Math.max(length, 1) / Math.max(medianLength, 1)));
}

/** The median of the answers' lengths (every answer's, played or not). */
export function medianLength(lengths: readonly number[]): number {
  return lengths.length === 0 ? 0 : median(lengths);
}

/**
 * The fitted model: each answer's θ and the length coefficient β, by Newton's method on the ridge
 * penalised log-likelihood of the decided matches (a draw says nothing about a preference and is left
 * out). `term` is each answer's length term ℓ.
 */
export function fitLengthModel(
  term: ReadonlyMap<string, number>,
  matches: readonly LengthMatch[],
  ridge = RIDGE,
): { theta: Map<string, number>; beta: number; decided: number } {
  const ids = [...term.keys()];
  const index = new Map(ids.map((id, i) => [id, i]));
  const rows = matches
    .filter((m) => m.scoreA !== m.scoreB && index.has(m.a) && index.has(m.b))
    .map((m) => ({ i: index.get(m.a)!, j: index.get(m.b)!, f: term.get(m.a)! - term.get(m.b)!, y: m.scoreA > m.scoreB ? 1 : 0 }));
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
 * Each answer's score with the length term taken out, and the fit behind it. The length term in log-odds
 * (β·ℓ) is put in points with the slope of the match score differences on the fitted log-odds (least
 * squares through zero); an answer's controlled score is its score less those points times its ℓ, held
 * to [0, maxScore]. A judge's score of an answer is absolute, so the whole term comes off it, whoever it
 * met. With fewer than MIN_DECIDED_MATCHES decided matches, or no usable slope, nothing is fitted and the
 * raw scores stand.
 */
export function lengthControlledScores(
  answers: readonly LengthAnswer[],
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
  const median = medianLength(answers.map((a) => a.length));
  const term = new Map(answers.map((a) => [a.id, lengthTerm(a.length, median)]));
  const { theta, beta } = fitLengthModel(term, matches);
  let sxy = 0;
  let sxx = 0;
  for (const m of matches) {
    if (!theta.has(m.a) || !theta.has(m.b)) continue;
    const e = theta.get(m.a)! - theta.get(m.b)! + beta * (term.get(m.a)! - term.get(m.b)!);
    sxy += (m.scoreA - m.scoreB) * e;
    sxx += e * e;
  }
  const perLogit = sxx > 0 ? sxy / sxx : 0;
  if (!(perLogit > 0) || !Number.isFinite(beta))
    return {
      control: { coefficient: 0, points: 0, fitted: false, reason: "the scores do not follow the fitted preferences" },
      scores: raw,
    };
  const points = perLogit * beta;
  const scores = new Map(
    answers.map((a) => [a.id, a.score === null ? null : Math.min(maxScore, Math.max(0, a.score - points * term.get(a.id)!))]),
  );
  return { control: { coefficient: beta, points, fitted: true, medianLength: median }, scores };
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
