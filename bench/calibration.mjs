// `npm run bench -- --only calibration`: does mapping the judge's scores onto a teacher's grades help,
// and which map for how many grades? The knockout (debiased, expected scores) grades Mohler and WMT
// zh-en questions against judge-sim, as the quality bench runs it (no service: the figures are the
// method's). Then, per question and for each k, `--calibration-sets` seeded draws of k answers stand
// for the ones a teacher graded (their human scores are the grades), and the mean absolute error
// against the human scores of the other answers is compared: the raw judge scores, each fixed map of
// src/teacher/calibration.ts fitted on the k grades, and the map the service chooses for k grades.
// A last row fits one map on 5 grades of every question of the dataset (a batch's pool).
//
//   npm run bench -- --only calibration [--quality-questions K] [--calibration-sets 100] [--noise 0.2 --bias 0.1]
import { readQuestions } from "./lib.mjs";
import { benchDatasets, judgeOver, noiseSettings, startSim, toQuestion, usable } from "./quality.mjs";

const { runQuestion } = await import("../src/core/quality.ts");
const { CALIBRATION_METHODS, calibrate, fitCalibration } = await import("../src/teacher/calibration.ts");
const { seededRandom } = await import("../src/random/seeded.ts");

export const GRADE_COUNTS = [2, 3, 5, 8, 12, 20];
const POOLED = 5;
const knockout = { label: "knockout, logprobs", method: "knockout", debias: true, scoreFrom: "logprobs" };
const FIXED = CALIBRATION_METHODS.filter((m) => m !== "identity");

/** Summed absolute error and count of `predict` against the human scores of `answers`. */
function errors(answers, predict) {
  return answers.reduce((s, a) => s + Math.abs(predict(a) - a.human), 0);
}

/** A seeded draw of k of the question's answers: the graded ones and the rest. */
function draw(answers, k, seed) {
  const random = seededRandom(seed).next;
  const order = answers.map((a) => ({ a, key: random() })).sort((x, y) => x.key - y.key);
  return { graded: order.slice(0, k).map((x) => x.a), rest: order.slice(k).map((x) => x.a) };
}

/**
 * Per k: the mean absolute error of the ungraded answers, over every question with more than k + 1
 * answers and `sets` draws each, for the raw scores, each fixed map and the chosen one.
 */
export function calibrationErrors(runs, ks, sets) {
  const rows = [];
  for (const k of ks) {
    const sums = { raw: 0, chosen: 0, ...Object.fromEntries(FIXED.map((m) => [m, 0])) };
    const chosen = new Map();
    let n = 0;
    let questions = 0;
    for (const [i, r] of runs.entries()) {
      if (r.q.answers.length < k + 2) continue;
      questions++;
      const bounds = [0, r.q.maxScore];
      for (let s = 0; s < sets; s++) {
        const { graded, rest } = draw(r.q.answers, k, 1_000_003 * (i + 1) + 1009 * k + s);
        const points = graded.map((a) => ({ judge: r.scores.get(a.id), teacher: a.human }));
        sums.raw += errors(rest, (a) => r.scores.get(a.id));
        for (const m of FIXED) {
          const fit = fitCalibration(points, { method: m, bounds });
          sums[m] += errors(rest, (a) => calibrate(fit, r.scores.get(a.id)));
        }
        const fit = fitCalibration(points, { bounds });
        chosen.set(fit.method, (chosen.get(fit.method) ?? 0) + 1);
        sums.chosen += errors(rest, (a) => calibrate(fit, r.scores.get(a.id)));
        n += rest.length;
      }
    }
    if (n === 0) continue;
    rows.push({
      k,
      questions,
      answers: n,
      ...Object.fromEntries(Object.entries(sums).map(([m, s]) => [m, s / n])),
      method: [...chosen.keys()].join("/"),
    });
  }
  return rows;
}

/**
 * The teacher's grades on the question's own scale, as the service takes them (0 to maxScore): zh-en's
 * human scores are MQM penalties from -25 to 0, placed on 0-100 as judge-sim places them.
 */
function onJudgeScale(q) {
  const { lo, hi } = q.sim;
  if (lo === 0 && hi === q.maxScore) return q;
  return { ...q, answers: q.answers.map((a) => ({ ...a, human: ((a.human - lo) / (hi - lo)) * q.maxScore })) };
}

export async function calibration({ shared, flag, port }) {
  const sets = benchDatasets(shared, flag);
  const draws = Number(flag("calibration-sets", 100));
  const settings = noiseSettings(flag, [
    { label: "--noise 0.2 --bias 0.1", noise: { noise: 0.2, bias: 0.1 } },
    {
      label: "--noise 0.15 --answer-noise 0.1 --point-drift 0.1 --bias 0.1",
      noise: { noise: 0.15, "answer-noise": 0.1, "point-drift": 0.1, bias: 0.1 },
    },
  ]);
  const out = [];
  for (const setting of settings) {
    for (const set of sets) {
      const questions = readQuestions(set.file)
        .slice(0, set.limit)
        .filter((q) => usable(q, set.translation))
        .map((q) => toQuestion(q, set.translation))
        .filter((q) => q.answers.length > 3)
        .map(onJudgeScale);
      const sim = await startSim(shared.sim, set.file, port, setting.noise);
      const runs = [];
      try {
        for (const [i, q] of questions.entries())
          runs.push({ q, scores: (await runQuestion(q, knockout, judgeOver(sim.url, []), 1 + i)).scores });
      } finally {
        sim.stop();
      }
      console.log(`\n  ${set.name}, ${runs.length} questions; ${setting.label}; ${draws} draws of k graded answers per question and k`);
      console.log(`  | k | questions | answers scored | raw | ${FIXED.join(" | ")} | chosen | chosen map |`);
      console.log(`  |---|---|---|---|${FIXED.map(() => "---|").join("")}---|---|`);
      for (const row of calibrationErrors(runs, GRADE_COUNTS, draws)) {
        out.push({ dataset: set.name, setting: setting.label, ...row });
        console.log(
          `  | ${row.k} | ${row.questions} | ${row.answers} | ${row.raw.toFixed(3)} | ${FIXED.map((m) => row[m].toFixed(3)).join(" | ")} | ${row.chosen.toFixed(3)} | ${row.method} |`,
        );
      }
      // a batch's pool: 5 grades of every question, one fit
      const pooled = runs.map((r, i) => ({ r, ...draw(r.q.answers, POOLED, 1000 + i) }));
      const points = pooled.flatMap((p) => p.graded.map((a) => ({ judge: p.r.scores.get(a.id), teacher: a.human })));
      const bounds = [0, runs[0].q.maxScore];
      const fits = [...FIXED.map((m) => fitCalibration(points, { method: m, bounds })), fitCalibration(points, { bounds })];
      let raw = 0;
      const cal = fits.map(() => 0);
      let n = 0;
      for (const p of pooled) {
        raw += errors(p.rest, (a) => p.r.scores.get(a.id));
        fits.forEach((fit, j) => {
          cal[j] += errors(p.rest, (a) => calibrate(fit, p.r.scores.get(a.id)));
        });
        n += p.rest.length;
      }
      console.log(
        `  | pooled over the batch, ${POOLED} a question | ${runs.length} | ${n} | ${(raw / n).toFixed(3)} | ${cal.map((c) => (c / n).toFixed(3)).join(" | ")} | ${fits.at(-1).method} |`,
      );
    }
  }
  return out;
}
