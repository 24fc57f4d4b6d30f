// `npm run bench -- --only panel`: does a panel of judges (issue 30 item 3, `judge.panel`) grade closer
// to the human scores than one judge at the same number of calls? Three judge-sims of different seeds
// (so each has its own errors about each answer: --answer-noise) and different biases play three judges;
// the Mohler questions are graded by the knockout's core over HTTP, as the quality bench does (no
// service: the figures are the method's), each judge alone, the panel in "cycle" (each match to the next
// judge in turn: one judge's calls), and the panel in "all" (every call to every judge, averaged with
// the service's own combineVotes: three times the calls), against each judge alone given as many calls
// (the knockout plus 4(N-1) extra calls). Pooled Pearson with the human scores.
//
//   npm run bench -- --only panel [--quality-questions K]
import "../scripts/ts-resolve.mjs";
import { readQuestions } from "./lib.mjs";

const { runQuestion } = await import("../src/core/quality.ts");
const { combineVotes, panelJudge } = await import("../src/core/panel.ts");
const { pearson } = await import("../src/metrics/correlation.ts");
const { gradableQuestions, judgeOver, startSim } = await import("./quality.mjs");

/** The three judges: independent errors (their seeds), and biases of their own. */
const JUDGES = [
  { name: "judge A", noise: { seed: 11, noise: 0.15, "answer-noise": 0.1, bias: 0.05 } },
  { name: "judge B", noise: { seed: 22, noise: 0.15, "answer-noise": 0.1, bias: 0.2 } },
  { name: "judge C", noise: { seed: 33, noise: 0.15, "answer-noise": 0.1, bias: 0.1, "length-bias": 0.1 } },
];

const KNOCKOUT = { label: "knockout", method: "knockout", debias: true, scoreFrom: "logprobs" };
/** The knockout given as many calls as a panel of three in "all": 3 x 2(N-1) = 2(N-1) + 4(N-1) extra. */
const KNOCKOUT_3X = { ...KNOCKOUT, label: "knockout + 4(N-1) extra", extraCalls: (n) => 4 * (n - 1) };

/** "cycle": each match to the next judge in turn (the service's panelJudge). */
function cycleJudge(judges) {
  return (question, call) =>
    judges[
      panelJudge(
        judges.map((_, i) => String(i)),
        call.match,
      )
    ](question, call);
}

/** "all": every call to every judge, their scores averaged (the service's combineVotes). */
function allJudge(judges) {
  return async (question, call) => {
    const replies = await Promise.all(judges.map((j) => j(question, call)));
    const combined = combineVotes(replies.map((r) => ({ scores: r.scores, ...r.detail })));
    return {
      scores: combined.scores,
      detail: { expected: combined.expected, spread: combined.spread, unheld: combined.unheld },
      requests: judges.length,
    };
  };
}

/** Every question graded by `m` with `judge`: the pooled Pearson with the human scores, and the judge requests sent. */
async function measure(questions, m, judge, perCall = 1) {
  const scores = [];
  const human = [];
  let requests = 0;
  for (const [i, q] of questions.entries()) {
    const run = await runQuestion(q, m, judge, 1 + i);
    requests += run.judgeCalls * perCall;
    for (const a of q.answers) {
      const s = run.scores.get(a.id);
      if (s === undefined) continue;
      scores.push(s);
      human.push(a.human);
    }
  }
  return { pearson: pearson(scores, human), requests };
}

export async function panel({ shared, flag, port }) {
  const limit = Number(flag("quality-questions", Infinity));
  const questions = gradableQuestions(readQuestions(shared.data).slice(0, limit), false);
  const n = questions.reduce((s, q) => s + q.answers.length, 0);
  const sims = [];
  try {
    for (const [i, j] of JUDGES.entries()) sims.push(await startSim(shared.sim, shared.data, port + 2 * i, j.noise));
    const judges = sims.map((s) => judgeOver(s.url, []));
    const rows = [];
    for (const [i, j] of JUDGES.entries()) rows.push({ who: j.name, calls: "1x", ...(await measure(questions, KNOCKOUT, judges[i])) });
    rows.push({ who: "panel, cycle", calls: "1x", ...(await measure(questions, KNOCKOUT, cycleJudge(judges))) });
    for (const [i, j] of JUDGES.entries()) rows.push({ who: j.name, calls: "3x", ...(await measure(questions, KNOCKOUT_3X, judges[i])) });
    rows.push({ who: "panel, all", calls: "3x", ...(await measure(questions, KNOCKOUT, allJudge(judges), judges.length)) });
    console.log(
      `\n  Mohler, ${questions.length} questions, ${n} answers; three judge-sims (${JUDGES.map(
        (j) =>
          `${j.name}: ${Object.entries(j.noise)
            .map(([k, v]) => `--${k} ${v}`)
            .join(" ")}`,
      ).join("; ")})`,
    );
    console.log("  | judge | judge requests | method | Pearson with the human scores |");
    console.log("  |---|---|---|---|");
    for (const r of rows)
      console.log(
        `  | ${r.who} | ${r.requests} (${r.calls}) | ${r.calls === "3x" && !r.who.startsWith("panel") ? KNOCKOUT_3X.label : "knockout"} | ${r.pearson.toFixed(4)} |`,
      );
    return rows;
  } finally {
    for (const s of sims) s.stop();
  }
}
