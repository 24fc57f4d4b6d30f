// `npm run bench -- --only calibration`: does mapping the judge's scores onto a teacher's grades help?
// The knockout (debiased, expected scores) grades Mohler and WMT zh-en questions against judge-sim,
// as the quality bench runs it (no service: the figures are the method's). Then, per question, 5
// answers drawn at random stand for the ones a teacher graded (their human scores are the teacher's
// grades), and the mean absolute error against the human scores of the other answers is compared:
// the raw judge scores; calibrated by an isotonic fit on the question's own 5 grades (what an
// evaluation alone gets); calibrated by one fit on the 5 grades of every question of the dataset with
// the same scale (what a batch's questions get). src/teacher/calibration.ts is the service's own fit.
//
//   npm run bench -- --only calibration [--quality-questions K] [--noise 0.2 --bias 0.2]
import { readQuestions } from "./lib.mjs";
import { benchDatasets, judgeOver, noiseSettings, startSim, toQuestion, usable } from "./quality.mjs";

const { runQuestion } = await import("../src/core/quality.ts");
const { calibrate, fitCalibration } = await import("../src/teacher/calibration.ts");
const { seededRandom } = await import("../src/random/seeded.ts");

const GRADED = 5;
const knockout = { label: "knockout, logprobs", method: "knockout", debias: true, scoreFrom: "logprobs" };

/** Mean absolute error of `predict` against the human scores of `answers`. */
function mae(answers, predict) {
  return answers.reduce((s, a) => s + Math.abs(predict(a) - a.human), 0) / answers.length;
}

export async function calibration({ shared, flag, port }) {
  const sets = benchDatasets(shared, flag);
  const settings = noiseSettings(flag, [
    { label: "judge-sim defaults", noise: {} },
    {
      label: "--noise 0.15 --answer-noise 0.1 --point-drift 0.1 --bias 0.1",
      noise: { noise: 0.15, "answer-noise": 0.1, "point-drift": 0.1, bias: 0.1 },
    },
  ]);
  const rows = [];
  for (const setting of settings) {
    for (const set of sets) {
      const questions = readQuestions(set.file)
        .slice(0, set.limit)
        .filter((q) => usable(q, set.translation))
        .map((q) => toQuestion(q, set.translation))
        .filter((q) => q.answers.length > GRADED + 1);
      const sim = await startSim(shared.sim, set.file, port, setting.noise);
      const runs = [];
      try {
        for (const [i, q] of questions.entries()) {
          const run = await runQuestion(q, knockout, judgeOver(sim.url, []), 1 + i);
          // the teacher's five: a seeded draw per question
          const random = seededRandom(1000 + i).next;
          const order = q.answers.map((a) => ({ a, key: random() })).sort((x, y) => x.key - y.key);
          const graded = order.slice(0, GRADED).map((x) => x.a);
          const rest = order.slice(GRADED).map((x) => x.a);
          runs.push({ q, scores: run.scores, graded, rest });
        }
      } finally {
        sim.stop();
      }
      const judged = (a, r) => r.scores.get(a.id);
      const pooledFit = fitCalibration(runs.flatMap((r) => r.graded.map((a) => ({ judge: judged(a, r), teacher: a.human }))));
      let raw = 0;
      let own = 0;
      let pooled = 0;
      let n = 0;
      for (const r of runs) {
        const fit = fitCalibration(r.graded.map((a) => ({ judge: judged(a, r), teacher: a.human })));
        const k = r.rest.length;
        raw += k * mae(r.rest, (a) => judged(a, r));
        own += k * mae(r.rest, (a) => calibrate(fit, judged(a, r)));
        pooled += k * mae(r.rest, (a) => calibrate(pooledFit, judged(a, r)));
        n += k;
      }
      const row = {
        dataset: set.name,
        setting: setting.label,
        questions: runs.length,
        answers: n,
        raw: raw / n,
        own: own / n,
        pooled: pooled / n,
      };
      rows.push(row);
      console.log(
        `  | ${row.dataset} | ${row.setting} | ${row.questions} | ${row.answers} | ${row.raw.toFixed(3)} | ${row.own.toFixed(3)} | ${row.pooled.toFixed(3)} |`,
      );
    }
  }
  return rows;
}
