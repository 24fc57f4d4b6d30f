import type { Tie } from "../contract/names";
import { wilsonInterval } from "../metrics/wilson";
import { decidingScores, mean } from "./match";

// The judge's own biases, read from the calls and matches an evaluation recorded (seeds 003/004: a
// pairwise judge favours a position, flips when the order is swapped, and prefers the longer answer).
// Pure: the same figures from the running tournament, from D1, for a batch, and in the CLI's report.

/** One recorded call: the answers in the order shown, the written scores, the judge's expected ones where given. */
export interface DiagnosedCall {
  order: readonly string[];
  scores: readonly number[];
  expected?: readonly number[] | null;
  parseRetried?: boolean;
}

/** A match with the lengths (in characters) of its answers; a pointwise judgment has `b` and `lengthB` null. */
export interface DiagnosedMatch {
  a: string;
  b: string | null;
  scoreA: number | null;
  scoreB: number | null;
  tie?: Tie;
  extra?: boolean;
  calls: readonly DiagnosedCall[];
  lengthA: number;
  lengthB: number | null;
}

/** A share with its 95% Wilson interval: `count` of `of`; null share and interval when `of` is 0. */
export interface Share {
  share: number | null;
  interval: [number, number] | null;
  count: number;
  of: number;
  /** The published figure to read it against, where there is one. */
  anchor?: { value: number; source: string };
}

export interface JudgeDiagnostics {
  firstPositionWins: Share;
  ordersDisagree: Share;
  longerWins: Share & { lengthRatio: number };
  parseRetried: Share;
  ties: Share & { byPosition: number };
  warnings: { figure: DiagnosticFigure; message: string }[];
}
export type DiagnosticFigure = "firstPositionWins" | "ordersDisagree" | "longerWins" | "parseRetried" | "ties";

/**
 * One answer is "longer" when it has at least this many times the other's characters: answers within
 * 10% of each other say nothing about a length preference (a judge cannot tell 500 from 520 characters
 * apart by length), so those matches are left out of `longerWins`.
 */
export const LENGTH_RATIO = 1.1;

/** The anchors' figures (FastChat's judge study, AlpacaEval's length threshold), shown beside ours. */
export const ANCHORS = {
  firstPositionWins: { value: 0.526, source: "FastChat (MT-bench, GPT-4 judge)" },
  ordersDisagree: { value: 0.129, source: "FastChat (MT-bench, GPT-4 judge)" },
  longerWins: { value: 0.68, source: "FastChat (MT-bench); AlpacaEval warns above 0.7" },
} as const;

/**
 * When a figure is far from fair (each needs its interval clear of the line, so three matches won by
 * the longer answer do not warn): the first position's interval wholly outside [0.4, 0.6]; orders
 * disagreeing with the interval's low end above twice FastChat's 12.9%; the longer answer winning more
 * than AlpacaEval's 0.7 with the interval's low end above 0.5; more than a tenth of calls asked again;
 * more than 30% of matches tied on the written scores.
 */
export const WARN = {
  firstPositionOutside: [0.4, 0.6] as const,
  ordersDisagreeLow: 2 * ANCHORS.ordersDisagree.value,
  longerWinsAbove: 0.7,
  parseRetriedAbove: 0.1,
  tiesAbove: 0.3,
};

/** The judge's bias figures over `matches` (one evaluation's, or a batch's pooled). */
export function judgeDiagnostics(matches: readonly DiagnosedMatch[]): JudgeDiagnostics {
  const pairwise = matches.filter((m) => m.b !== null);
  let first = 0;
  let firstOf = 0;
  let disagree = 0;
  let debiased = 0;
  for (const m of pairwise) {
    if (!bothOrders(m)) continue;
    debiased++;
    const winners = m.calls.map(callWinner);
    for (const w of winners) {
      if (w === null) continue;
      firstOf++;
      if (w === 0) first++;
    }
    const [x, y] = winners.map((w, i) => (w === null ? null : m.calls[i].order[w]));
    if (x !== null && y !== null && x !== y) disagree++;
  }
  let longer = 0;
  let longerOf = 0;
  for (const m of pairwise) {
    if (m.scoreA === null || m.scoreB === null || m.scoreA === m.scoreB || m.lengthB === null) continue;
    const [long, short] = m.lengthA >= m.lengthB ? [m.lengthA, m.lengthB] : [m.lengthB, m.lengthA];
    // the epsilon: 110 characters against 100 are 1.1 times, whatever 1.1 * 100 rounds to
    if (long < LENGTH_RATIO * Math.max(short, 1) - 1e-9) continue;
    longerOf++;
    if (m.scoreA > m.scoreB === m.lengthA > m.lengthB) longer++;
  }
  const calls = matches.flatMap((m) => m.calls);
  const settled = pairwise.filter((m) => !m.extra && m.scoreA !== null && m.scoreB !== null && m.calls.length > 0);
  const tied = settled.filter((m) => writtenTie(m));
  const figures = {
    firstPositionWins: share(first, firstOf, ANCHORS.firstPositionWins),
    ordersDisagree: share(disagree, debiased, ANCHORS.ordersDisagree),
    longerWins: { ...share(longer, longerOf, ANCHORS.longerWins), lengthRatio: LENGTH_RATIO },
    parseRetried: share(calls.filter((c) => c.parseRetried).length, calls.length),
    ties: { ...share(tied.length, settled.length), byPosition: tied.filter((m) => m.tie === "position").length },
  };
  return { ...figures, warnings: warnings(figures) };
}

/** Judged in both orders: two recorded calls, the second showing the first's answers the other way round. */
function bothOrders(m: DiagnosedMatch): boolean {
  const [c, d] = m.calls;
  return m.calls.length === 2 && c.order.length === 2 && d.order[0] === c.order[1] && d.order[1] === c.order[0];
}

/** The position (0: shown first) a call's deciding scores chose, or null when they are equal. */
function callWinner(c: DiagnosedCall): 0 | 1 | null {
  const [x, y] = decidingScores(c);
  return x === y ? null : x > y ? 0 : 1;
}

/** The written match scores (each answer's mean over the match's calls) were equal. */
function writtenTie(m: DiagnosedMatch): boolean {
  const written = (id: string) => mean(m.calls.map((c) => c.scores[c.order.indexOf(id)]));
  return written(m.a) === written(m.b!);
}

function share(count: number, of: number, anchor?: { value: number; source: string }): Share {
  return { share: of > 0 ? count / of : null, interval: wilsonInterval(count, of), count, of, ...(anchor ? { anchor } : {}) };
}

function percent(x: number): string {
  return `${(100 * x).toFixed(1)}%`;
}

function warnings(f: Omit<JudgeDiagnostics, "warnings">): JudgeDiagnostics["warnings"] {
  const out: JudgeDiagnostics["warnings"] = [];
  const [fpLow, fpHigh] = WARN.firstPositionOutside;
  const fp = f.firstPositionWins;
  if (fp.interval && (fp.interval[0] > fpHigh || fp.interval[1] < fpLow))
    out.push({
      figure: "firstPositionWins",
      message: `the answer shown first wins ${percent(fp.share!)} of calls (95% interval ${percent(fp.interval[0])}–${percent(fp.interval[1])}; FastChat's judge: 52.6%): this judge favours a position, so judge both orders`,
    });
  const od = f.ordersDisagree;
  if (od.interval && od.interval[0] > WARN.ordersDisagreeLow)
    out.push({
      figure: "ordersDisagree",
      message: `${percent(od.share!)} of matches judged both ways chose different winners (FastChat's judge: 12.9%): its verdicts follow the order more than the answers`,
    });
  const lw = f.longerWins;
  if (lw.interval && lw.share! > WARN.longerWinsAbove && lw.interval[0] > 0.5)
    out.push({
      figure: "longerWins",
      message: `the longer answer wins ${percent(lw.share!)} of decided matches, above AlpacaEval's 70%: consider lengthControl`,
    });
  const pr = f.parseRetried;
  if (pr.share !== null && pr.share > WARN.parseRetriedAbove)
    out.push({
      figure: "parseRetried",
      message: `${percent(pr.share)} of calls had to be asked again before their reply could be read: the judge struggles with the format`,
    });
  const t = f.ties;
  if (t.share !== null && t.share > WARN.tiesAbove)
    out.push({
      figure: "ties",
      message: `${percent(t.share)} of matches tied on the written scores (${t.byPosition} decided by position): the judge's probabilities (scoreFrom "logprobs") separate them`,
    });
  return out;
}
