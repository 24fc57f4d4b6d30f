// `npm run bench -- --only quality`: how well each method's scores agree with the human scores, against
// the judge calls it spends. Every method's core (src/core/quality.ts) runs on Mohler and WMT zh-en
// questions against judge-sim over HTTP, with the service's own prompts, parser and expected-score
// reading (src/judge), at judge-sim's default noise and at --noise 0.2 --bias 0.2 (or the --noise,
// --bias, --answer-noise, --point-drift given). No service is started: the methods are pure cores, so
// the figures are the methods', not the transport's.
// Beside each pairwise row: the averaging bound (bound.mjs), what an even spread of the row's
// judgments per answer reaches under judge-sim's own error model; no averaging method is expected to pass it.
//
//   npm run bench -- --only quality [--quality-questions K] [--noise 0.2 --bias 0.2]
//                    [--adaptive-margin 0.05] [--quality-methods adaptive,round-robin] [--quality-review no]
//                    [--quality-placement no]
// After each dataset's rows, the review row (bench/review.mjs): the share of flagged answers among the
// 20% worst-graded and the flagged vs unflagged error. Then the placement rows (bench/placement.mjs):
// each placement of the extra calls, its Pearson and its first-round losers' interval coverage.
import { spawn } from "node:child_process";
import path from "node:path";
import "../scripts/ts-resolve.mjs";
import { readQuestions } from "./lib.mjs";

const { qualityBench, standardMethods } = await import("../src/core/quality.ts");
const { adaptiveMargin } = await import("../src/core/extra.ts");
const { judgeRequest, readReply } = await import("../src/judge/ask.ts");
const { expectedScores, scoreStep } = await import("../src/judge/expected.ts");
const { averagingBound } = await import("./bound.mjs");
const { reviewRow } = await import("./review.mjs");
const { placementRows } = await import("./placement.mjs");

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export async function startSim(simPath, data, port, noise) {
  const args = [simPath, "--data", data, "--port", String(port), "--slots", "256", "--service", "0", "--jitter", "0"];
  for (const [k, v] of Object.entries(noise)) args.push(`--${k}`, String(v));
  const child = spawn(process.execPath, args, { stdio: ["ignore", "ignore", "inherit"] });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${url}/stats`)).ok) break;
    } catch {}
    if (i > 200) throw new Error("judge-sim did not start");
    await sleep(50);
  }
  return { url, stop: () => child.kill("SIGTERM") };
}

/**
 * A dataset question as the service would be asked it, and as the quality core needs it. Without the
 * reference: judge-sim finds answers by their text, and 13 Mohler questions have an answer that stands
 * verbatim in the reference ("push", "by reference"), which it would take for the answer shown. The
 * reference changes nothing in judge-sim's grades. And without repeated answers: as the paper removed
 * identical translations of a source, every text is kept once (its first answer), since judge-sim
 * grades a text by the first answer that has it and a judge cannot tell two copies apart either (the
 * first 100 zh-en sources hold 1,405 pairs of identical translations, 448 of them scored differently).
 * A question with an answer whose text stands in the prompt's own words is left out (Mohler 2.5 has
 * the answer "1", which judge-sim finds in "Answer 1" of every prompt, so it misreads every call of
 * that question, whichever answers are shown): `usable`.
 */
export function toQuestion(q, translation) {
  const maxScore = translation ? 100 : q.max_score;
  const texts = new Set();
  q = { ...q, answers: q.answers.filter((a) => !texts.has(a.text.trim()) && texts.add(a.text.trim())) };
  const input = {
    id: String(q.question_id),
    tenant: "bench",
    question: q.question,
    reference: null,
    maxScore,
    template: translation ? "translation" : "exam",
    method: "knockout",
    debias: true,
    seed: 1,
    judge: { model: null, temperature: 0.1 },
    answers: q.answers.map((a) => ({ id: String(a.id), text: a.text })),
    rubric: null,
    createdAt: 0,
  };
  return {
    id: input.id,
    maxScore,
    answers: q.answers.map((a) => ({ id: String(a.id), human: a.human_score })),
    input,
    // the scale judge-sim places the human grade on (bound.mjs)
    sim: { lo: q.min_score ?? 0, hi: q.max_score },
  };
}

/** judge-sim can find each of the question's answers in a prompt only where it is shown. */
export function usable(q, translation) {
  const fixed = promptWords(q, translation);
  return q.answers.every((a) => !fixed.includes(a.text.trim()));
}

/** A dataset's rows as the benches grade them: the usable ones, as questions, with two answers or more. */
export function gradableQuestions(rows, translation) {
  return rows
    .filter((q) => usable(q, translation))
    .map((q) => toQuestion(q, translation))
    .filter((q) => q.answers.length >= 2);
}

/** Every word of a question's prompts but the answers (two stand-in answers in their place). */
function promptWords(q, translation) {
  const input = {
    question: q.question,
    reference: null,
    maxScore: translation ? 100 : q.max_score,
    template: translation ? "translation" : "exam",
    judge: { model: null, temperature: 0.1 },
    answers: [
      { id: "1st", text: "\u0001" },
      { id: "2nd", text: "\u0002" },
    ],
    rubric: null,
  };
  return [["1st", "2nd"], ["1st"]]
    .map((order) =>
      judgeRequest(input, { match: 0, call: 0, round: 1, order })
        .messages.map((m) => m.content)
        .join("\n"),
    )
    .join("\n");
}

/** A POST to judge-sim, sent again (up to 5 times) when the connection fails before a reply. */
async function postWithRetry(url, init) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fetch(url, init);
    } catch (err) {
      if (attempt >= 5) throw err;
      await sleep(50 * attempt);
    }
  }
}

/** One judge call over HTTP: the service's prompt, logprobs asked for, the reply read as the service reads it. */
export function judgeOver(url, sent) {
  return async (question, call) => {
    const request = judgeRequest(question.input, call);
    sent.push(call.order.join("\u0000"));
    for (let attempt = 1; ; attempt++) {
      // a burst of a round-robin's calls can find a kept-alive socket closing under it: ask again
      const response = await postWithRetry(`${url}/v1/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          model: "judge-sim",
          messages: request.messages,
          temperature: request.temperature,
          logprobs: true,
          top_logprobs: 20,
        }),
      });
      const json = await response.json();
      const text = json.choices?.[0]?.message?.content ?? "";
      const parsed = readReply(question.input, call, text);
      if (!parsed.ok) {
        if (attempt < 3) continue;
        throw new Error(`question ${question.id}: unreadable reply ${JSON.stringify(text.slice(0, 120))}: ${parsed.reason}`);
      }
      const scale = { template: question.input.template, maxScore: question.maxScore, step: scoreStep(question.input.template) };
      const read = expectedScores(text, json.choices?.[0]?.logprobs?.content, scale, call.order.length === 2 ? "pairwise" : "pointwise");
      return { scores: parsed.value, detail: read ? { expected: read.expected, spread: read.spread, unheld: read.unheld } : {} };
    }
  };
}

/**
 * The datasets the quality and calibration benches grade. Mohler: the 81 questions of published work
 * (N 24-31); zh-en: the first 100 (N 15); `--quality-questions K`: the first K of each.
 */
export function benchDatasets(shared, flag) {
  const limit = flag("quality-questions", undefined);
  return [
    { name: "Mohler", file: shared.data, translation: false, limit: limit === undefined ? Infinity : Number(limit) },
    {
      name: "WMT zh-en",
      file: path.join(path.dirname(shared.data), "../wmt_mqm_ted/mqm_ted_zhen.jsonl"),
      translation: true,
      limit: limit === undefined ? 100 : Number(limit),
    },
  ];
}

/** judge-sim's error settings: those given on the command line, else the bench's own. */
export function noiseSettings(flag, defaults) {
  const given = ["noise", "bias", "answer-noise", "point-drift"].filter((k) => flag(k, undefined) !== undefined);
  return given.length
    ? [{ label: given.map((k) => `--${k} ${flag(k)}`).join(" "), noise: Object.fromEntries(given.map((k) => [k, flag(k)])) }]
    : defaults;
}

/**
 * Runs the quality bench on `benchDatasets`; returns the printed rows. `flag` reads the command line
 * as run.mjs does.
 */
export async function quality({ shared, flag, port }) {
  const sets = benchDatasets(shared, flag);
  const settings = noiseSettings(flag, [
    { label: "judge-sim defaults (--noise 0.1 --bias 0.05)", noise: {} },
    { label: "--noise 0.2 --bias 0.2", noise: { noise: 0.2, bias: 0.2 } },
  ]);
  // --adaptive-margin 0.05: adaptive debiasing's margin as a share of the scale (default a tenth);
  // --quality-methods adaptive,round: only the rows whose label contains one of these
  const share = flag("adaptive-margin", undefined);
  const only = flag("quality-methods", undefined)?.split(",");
  const methods = standardMethods(share === undefined ? adaptiveMargin : (max) => max * Number(share)).filter(
    (m) => !only || only.some((o) => m.label.includes(o)),
  );
  const out = [];
  for (const setting of settings) {
    for (const set of sets) {
      const all = readQuestions(set.file).slice(0, set.limit);
      const questions = gradableQuestions(all, set.translation);
      if (questions.length < all.length)
        console.log(
          `\n  ${set.name}: ${all.length - questions.length} question(s) left out: an answer's text stands in the prompt's own words`,
        );
      const n = questions.reduce((s, q) => s + q.answers.length, 0);
      const sim = await startSim(shared.sim, set.file, port, setting.noise);
      const started = Date.now();
      try {
        const sent = [];
        const rows = await qualityBench(questions, methods, judgeOver(sim.url, sent));
        // judge-sim says which answers it found in each prompt: they must be the ones sent, in order
        const seen = (await (await fetch(`${sim.url}/stats`)).json()).calls.map((c) => c.ids.slice(0, 2).join("\u0000"));
        const count = (xs) => xs.reduce((m, x) => m.set(x, (m.get(x) ?? 0) + 1), new Map());
        const seenCount = count(seen);
        let misread = 0;
        for (const [k, v] of count(sent)) misread += Math.max(0, v - (seenCount.get(k) ?? 0));
        const rr = rows.find((r) => r.label.startsWith("round-robin"));
        console.log(
          `\n  ${set.name}, ${questions.length} questions, ${n} answers; ${setting.label} (${Math.round((Date.now() - started) / 1000)} s; judge-sim read other answers than sent in ${misread} of ${sent.length} calls)`,
        );
        console.log(
          "  | method | Pearson | judge calls | calls per answer | share of round-robin's calls | calls saved | averaging bound at its judgments per answer |",
        );
        console.log("  |---|---|---|---|---|---|---|");
        const errors = { noise: Number(setting.noise.noise ?? 0.1), answerNoise: Number(setting.noise["answer-noise"] ?? 0) };
        for (const r of rows) {
          const share = rr ? `${((100 * r.judgeCalls) / rr.judgeCalls).toFixed(1)}%` : "";
          // pairwise methods: each call judges two answers; the bound leaves out pointwise drift, so not for individual
          const judgments = 2 * r.callsPerAnswer;
          const bound = r.label.startsWith("individual")
            ? ""
            : `${averagingBound(questions, judgments, errors).toFixed(4)} (${judgments.toFixed(1)})`;
          console.log(
            `  | ${r.label} | ${r.pearson === null ? "n/a" : r.pearson.toFixed(4)} | ${r.judgeCalls} | ${r.callsPerAnswer.toFixed(2)} | ${share} | ${r.callsSaved || ""} | ${bound} |`,
          );
          out.push({ dataset: set.name, setting: setting.label, ...r });
        }
        // issue 26: do the flags find the wrong grades? (bench/review.mjs)
        if (flag("quality-review", "yes") !== "no") await reviewRow(questions, judgeOver(sim.url, []), set.name, setting.label);
        // issue 26: where the extra calls go, and the first-round losers' coverage (bench/placement.mjs)
        if (flag("quality-placement", "yes") !== "no") await placementRows(questions, judgeOver(sim.url, []), set.name, setting.label);
      } finally {
        sim.stop();
      }
    }
  }
  return out;
}
