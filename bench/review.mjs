// The quality bench's review rows (issue 26): do the answers flagged for review hold the wrong grades?
// The knockout (debiased, expected scores) grades each question against judge-sim as the quality bench
// runs it; each answer's review comes from src/core/confidence.ts with `reviewShare` 0.15, exactly as
// the service computes it. Against the human grade (on the judge's scale), the bench reports the share
// of flagged answers among the 20% worst-graded (pooled over the dataset; a random pick reaches 20%),
// the flagged and unflagged answers' mean absolute error and their ratio, and the same with the grade
// boundaries at half and four fifths of the scale (Mohler: 2.5 and 4), where "wrong" is another band.
import "../scripts/ts-resolve.mjs";

const { runQuestion } = await import("../src/core/quality.ts");
const { answerConfidence } = await import("../src/core/confidence.ts");
const { scoreStep } = await import("../src/judge/expected.ts");

export const REVIEW_METHOD = { label: "knockout, logprobs", method: "knockout", debias: true, scoreFrom: "logprobs" };

/** The human grade on the judge's scale (zh-en's MQM -25..0 onto 0..100, as judge-sim places it). */
export function human(q, a) {
  const { lo, hi } = q.sim;
  return lo === 0 && hi === q.maxScore ? a.human : ((a.human - lo) / (hi - lo)) * q.maxScore;
}

/** The boundaries the banded rows use: half and four fifths of the scale. */
export const bandsOf = (maxScore) => [maxScore / 2, (4 * maxScore) / 5];

/**
 * Each judged answer of each run: its error against the human grade, whether its band is wrong, and
 * its review without and with boundaries. `runs`: `{ q, run }` with `run` from runQuestion.
 */
export function reviewedAnswers(runs, { reviewShare = 0.15 } = {}) {
  const out = [];
  for (const [question, { q, run }] of runs.entries()) {
    const ids = q.answers.map((a) => a.id);
    const step = scoreStep(q.input.template);
    const plain = answerConfidence(ids, run.matches, { maxScore: q.maxScore, step, reviewShare });
    const bands = bandsOf(q.maxScore);
    const banded = answerConfidence(ids, run.matches, { maxScore: q.maxScore, step, reviewShare, gradeBoundaries: bands });
    const band = (x) => bands.filter((g) => g <= x).length;
    for (const a of q.answers) {
      const score = run.scores.get(a.id);
      const r = plain.get(a.id)?.review;
      if (score === undefined || !r) continue;
      const h = human(q, a);
      out.push({
        question,
        error: Math.abs(score - h) / q.maxScore,
        bandWrong: band(score) !== band(h),
        flagged: r.flagged,
        probability: r.probability,
        bandFlagged: banded.get(a.id).review.flagged,
      });
    }
  }
  return out;
}

/** The error at and above which an answer is among the 20% worst-graded of `answers` (each with an `error`). */
export function worstCut(answers) {
  const errors = answers.map((a) => a.error).sort((x, y) => y - x);
  return errors[Math.max(0, Math.ceil(0.2 * errors.length) - 1)];
}

/** The share of flagged answers among the 20% worst-graded, and the flagged vs unflagged mean error. */
export function reviewMeasures(answers) {
  const cut = worstCut(answers);
  const flagged = answers.filter((a) => a.flagged);
  const rest = answers.filter((a) => !a.flagged);
  const mae = (xs) => (xs.length ? xs.reduce((s, a) => s + a.error, 0) / xs.length : NaN);
  const bandFlagged = answers.filter((a) => a.bandFlagged);
  const bandWrongShare = (xs) => (xs.length ? xs.filter((a) => a.bandWrong).length / xs.length : NaN);
  return {
    answers: answers.length,
    flagged: flagged.length,
    amongWorst: flagged.filter((a) => a.error >= cut).length / flagged.length,
    maeFlagged: mae(flagged),
    maeUnflagged: mae(rest),
    bandWrongFlagged: bandWrongShare(bandFlagged),
    bandWrongUnflagged: bandWrongShare(answers.filter((a) => !a.bandFlagged)),
  };
}

/**
 * What no flag rule drawn per question can pass: the same measures for flags that knew every answer's
 * error (each question's ceil(share x answers) worst), and how many of the 20% worst lie beyond their
 * question's share (its share holds fewer answers than it has among the worst).
 */
export function reviewCeiling(answers, share = 0.15) {
  const byQuestion = new Map();
  for (const a of answers) byQuestion.set(a.question, [...(byQuestion.get(a.question) ?? []), a]);
  const cut = worstCut(answers);
  const knowing = [];
  let beyondShare = 0;
  for (const list of byQuestion.values()) {
    const slots = Math.ceil(share * list.length - 1e-9);
    const worstFirst = [...list].sort((x, y) => y.error - x.error);
    for (const [i, a] of worstFirst.entries()) knowing.push({ ...a, flagged: i < slots });
    beyondShare += Math.max(0, list.filter((a) => a.error >= cut).length - slots);
  }
  const m = reviewMeasures(knowing);
  return {
    amongWorst: m.amongWorst,
    ratio: m.maeFlagged / m.maeUnflagged,
    beyondShare,
    worst: answers.filter((a) => a.error >= cut).length,
  };
}

/** Runs the knockout on every question and prints the review row of one dataset and setting. */
export async function reviewRow(questions, judge, name, setting, print = console.log) {
  const runs = [];
  for (const [i, q] of questions.entries()) runs.push({ q, run: await runQuestion(q, REVIEW_METHOD, judge, 1 + i) });
  const m = reviewMeasures(reviewedAnswers(runs));
  const pct = (x) => `${(100 * x).toFixed(1)}%`;
  print(
    `  review (${name}, ${setting}; knockout, logprobs; reviewShare 0.15): ${m.flagged} of ${m.answers} flagged; ` +
      `${pct(m.amongWorst)} of them among the 20% worst-graded (${(m.amongWorst / 0.2).toFixed(2)}x chance); ` +
      `MAE flagged ${m.maeFlagged.toFixed(4)} vs unflagged ${m.maeUnflagged.toFixed(4)} of the scale (${(m.maeFlagged / m.maeUnflagged).toFixed(2)}x); ` +
      `with boundaries at 1/2 and 4/5 of the scale, band wrong ${pct(m.bandWrongFlagged)} of flagged vs ${pct(m.bandWrongUnflagged)} of unflagged`,
  );
  return m;
}
