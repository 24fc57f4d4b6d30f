// `npm run bench -- --only length`: does length control (src/core/length-control.ts, `lengthControl: true`)
// give back what a judge's preference for longer answers costs? The Mohler questions are graded by the
// knockout's core against judge-sim over HTTP, as the quality bench does (no service: the figures are the
// method's), three times: judge-sim without a length bias, and with `--length-bias B` (B of the scale
// per doubling of an answer's length over its question's median); each run's scores raw and controlled.
// Pooled Pearson with the human scores; "recovered" is the share of the bias's cost the control gives back.
//
//   npm run bench -- --only length [--length-bias 0.2] [--quality-questions K] [--length-methods knockout,extra,round-robin]
import "../scripts/ts-resolve.mjs";
import { readQuestions } from "./lib.mjs";

const { runQuestion } = await import("../src/core/quality.ts");
const { lengthControlledScores } = await import("../src/core/length-control.ts");
const { pearson } = await import("../src/metrics/correlation.ts");
const { gradableQuestions, judgeOver, startSim } = await import("./quality.mjs");

const METHODS = {
  knockout: { label: "knockout, logprobs (the service's default)", method: "knockout", debias: true, scoreFrom: "logprobs" },
  extra: {
    label: "knockout, logprobs, extra N",
    method: "knockout",
    debias: true,
    scoreFrom: "logprobs",
    extraCalls: (n) => n,
  },
  "round-robin": { label: "round-robin (debiased, logprobs)", method: "round-robin", debias: true, scoreFrom: "logprobs" },
};

/** Every question graded by `m` against the judge at `url`: the pooled raw and controlled Pearson, and the fits. */
async function measure(questions, m, url) {
  const raw = [];
  const controlled = [];
  const human = [];
  const coefficients = [];
  let fitted = 0;
  let calls = 0;
  for (const [i, q] of questions.entries()) {
    const run = await runQuestion(q, m, judgeOver(url, []), 1 + i);
    calls += run.judgeCalls;
    const length = new Map(q.input.answers.map((a) => [a.id, Array.from(a.text).length]));
    const matches = run.matches.flatMap((x) =>
      x.b !== null && x.scoreA !== null && x.scoreB !== null ? [{ a: x.a, b: x.b, scoreA: x.scoreA, scoreB: x.scoreB }] : [],
    );
    const answers = q.answers.map((a) => ({ id: a.id, score: run.scores.get(a.id) ?? null, length: length.get(a.id) }));
    const lc = lengthControlledScores(answers, matches, q.maxScore);
    if (lc.control.fitted) {
      fitted++;
      coefficients.push(lc.control.coefficient);
    }
    for (const a of q.answers) {
      const s = run.scores.get(a.id);
      if (s === undefined) continue;
      raw.push(s);
      controlled.push(lc.scores.get(a.id));
      human.push(a.human);
    }
  }
  coefficients.sort((x, y) => x - y);
  return {
    raw: pearson(raw, human),
    controlled: pearson(controlled, human),
    fitted,
    medianCoefficient: coefficients.length ? coefficients[Math.floor(coefficients.length / 2)] : null,
    calls,
  };
}

export async function length({ shared, flag, port }) {
  const bias = Number(flag("length-bias", 0.2));
  const limit = Number(flag("quality-questions", Infinity));
  const methods = flag("length-methods", "knockout,extra")
    .split(",")
    .map((k) => METHODS[k]);
  const questions = gradableQuestions(readQuestions(shared.data).slice(0, limit), false);
  const n = questions.reduce((s, q) => s + q.answers.length, 0);
  const settings = [
    { label: "no length bias", noise: {} },
    { label: `--length-bias ${bias}`, noise: { "length-bias": bias } },
  ];
  const results = new Map();
  for (const setting of settings) {
    const sim = await startSim(shared.sim, shared.data, port, setting.noise);
    try {
      for (const m of methods) results.set(`${setting.label}|${m.label}`, await measure(questions, m, sim.url));
    } finally {
      sim.stop();
    }
  }
  console.log(
    `\n  Mohler, ${questions.length} questions, ${n} answers; judge-sim defaults (--noise 0.1 --bias 0.05) and the length bias shown`,
  );
  console.log("  | method | judge-sim | Pearson raw | Pearson length-controlled | questions fitted | median coefficient | judge calls |");
  console.log("  |---|---|---|---|---|---|---|");
  const out = [];
  for (const m of methods) {
    for (const setting of settings) {
      const r = results.get(`${setting.label}|${m.label}`);
      const f = (x) => (x === null ? "n/a" : x.toFixed(4));
      console.log(
        `  | ${m.label} | ${setting.label} | ${f(r.raw)} | ${f(r.controlled)} | ${r.fitted} of ${questions.length} | ${r.medianCoefficient === null ? "" : r.medianCoefficient.toFixed(3)} | ${r.calls} |`,
      );
    }
    const clean = results.get(`${settings[0].label}|${m.label}`);
    const biased = results.get(`${settings[1].label}|${m.label}`);
    const cost = clean.raw - biased.raw;
    const back = biased.controlled - biased.raw;
    console.log(
      `  ${m.label}: the length bias costs ${cost.toFixed(4)} of Pearson; control gives back ${back.toFixed(4)}` +
        (cost > 0 ? ` (${((100 * back) / cost).toFixed(0)}% of the cost; goal: at least 50%)` : " (the bias cost nothing to give back)") +
        `; without a bias, control changes Pearson by ${(clean.controlled - clean.raw).toFixed(4)}`,
    );
    out.push({ method: m.label, clean, biased, cost, back });
  }
  return out;
}
