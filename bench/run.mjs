// `npm run bench`: the service at the limit of the judge, each target as a ratio, in one run.
//   npm run bench [-- --only throughput,latency,overhead,profile,bill,floor,scale,pool,pollers,erase,export,quality,review,placement,calibration,length,ties,panel,ratings] [--slots 16] [--service 300]
//                 [--questions 40] [--scale 1000] [--scale-service 200] [--scale-answers 8] [--scale-waves 5] [--pairing bracket,round]
//                 [--poll-answers 256] [--poll-chars 5000] [--pollers 8] [--feedback judge] [--erase-answers 1000] [--export-answers 10000]
//                 [--reasoning-tokens 150] [--alternatives full|sim]
// `--reasoning-tokens K`: in the throughput, latency and overhead targets judge-sim reasons K words before
// its verdict, as a real judge does (100 to 300 tokens), and the service's calls stream with logprobs, so
// each token is a chunk the service parses; the overhead target runs at 0 and at K, side by side.
// `--alternatives full` (the default): in the overhead and profile targets every token comes with its 20
// alternatives, as vLLM sends them (./full-alternatives.mjs); `sim`: as judge-sim sends them (one for a
// reasoning token), about a fifth of the bytes.
// `--feedback judge`: the throughput target runs a second time with feedback for the students (one more
// call per answer, after each tournament) and reports both ratios per call, and their difference.
// Needs judge-sim and the Mohler data beside the project (../shared, or BENCH_SHARED=dir); skips otherwise.
// Ports 8200-8299 by default (BENCH_PORT_BASE moves them).
import os from "node:os";
import { runBaseline } from "./baseline.mjs";
import { fullAlternatives as startFullAlternatives } from "./full-alternatives.mjs";
import { recorder } from "./results.mjs";
import { evaluationBody, findShared, gradeAll, median, newKey, readQuestions, span, startJudgeSim, startService } from "./lib.mjs";

const argv = process.argv.slice(2);
const flag = (name, fallback) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1] : fallback;
};
const S = Number(flag("slots", 16));
const T = Number(flag("service", 300));
const K = Number(flag("reasoning-tokens", 150));
if (!Number.isInteger(K) || K < 0) {
  console.error(`--reasoning-tokens must be a whole number of tokens, 0 or more (got ${flag("reasoning-tokens")})`);
  process.exit(2);
}
// a real judge's calls: every grading call asks for the token probabilities and reads them
const scoreFrom = "logprobs";
const alternatives = flag("alternatives", "full");
if (!["full", "sim"].includes(alternatives)) {
  console.error(`--alternatives is full or sim (got ${alternatives})`);
  process.exit(2);
}
const fullAlternatives = alternatives === "full";
const only = new Set(flag("only", "throughput,latency,overhead,scale").split(","));
const pairings = flag("pairing", "bracket,round")
  .split(",")
  .filter((p) => p && p !== "none");
const base = Number(process.env.BENCH_PORT_BASE ?? 8200);
const port = { sim: base + 1, service: base + 10 };

const results = recorder(`npm run bench -- ${argv.join(" ")}`.trim());
const shared = findShared();
if (!shared) {
  console.log(
    "bench skipped: judge-sim (tools/judge-sim.mjs) and the Mohler data were not found in ../shared; set BENCH_SHARED=<dir> to point at them.",
  );
  process.exit(0);
}
const questions = readQuestions(shared.data);
const rows = [];
const report = (target, figure, ratio, goal, note = "") => {
  rows.push({ target, figure, ratio, goal, note });
  console.log(`  ${target}: ${figure}${ratio !== null ? `  ratio ${ratio.toFixed(3)}` : ""}${goal ? ` (target ${goal})` : ""} ${note}`);
};

async function withRig(simOptions, vars, work) {
  const sim = await startJudgeSim(shared, port.sim, simOptions);
  // every token with its 20 alternatives, as vLLM sends them (./full-alternatives.mjs)
  const proxy = simOptions.fullAlternatives ? await startFullAlternatives(sim.url) : null;
  let service;
  try {
    // streamed (production's default, said here so the figures do not move if that default does)
    service = await startService(port.service, {
      JUDGE_BASE_URL: `${(proxy ?? sim).url}/v1`,
      JUDGE_MODEL: "judge-sim",
      JUDGE_STREAM: "true",
      ...vars,
    });
    const key = await newKey(service);
    return await work({ sim, service, key });
  } finally {
    await service?.stop();
    await proxy?.stop();
    await sim.stop();
  }
}

const limitMs = (calls, slots, service) => Math.ceil(calls / slots) * service;
/** judge-sim's own count of the requests that came streamed: the check that the figures are the streamed path's. */
const streamed = (stats) => `${stats.streamed} of ${stats.requests} requests streamed`;

/**
 * Grades `qs` and reports the time as a ratio to the judge's limit, then the plain script on the same
 * work. With `waves` > 1 the same number of questions is queued again, at once, each time the last wave
 * has finished, in the same service: every wave's ratio and the memory after it show whether the service
 * holds its pace and its memory under sustained load, not only on a fresh start.
 */
async function throughput(
  label,
  qs,
  { slots, service, maxAnswers, waves = 1, memory: watch = false, pairing, feedback, plainScript = true, reasoningTokens = 0, scoreFrom },
) {
  let firstRatio = null;
  await withRig({ slots, service, reasoningTokens }, { JUDGE_MAX_CONCURRENCY: slots }, async ({ sim, service: svc, key }) => {
    const memory = [svc.workerdRss()];
    let peak = 0;
    let resident = 0;
    const sampler = watch
      ? setInterval(() => {
          peak = Math.max(peak, svc.workerdRss().service);
          resident = Math.max(resident, svc.openTournaments());
        }, 1000)
      : null;
    const ratios = [];
    let first;
    for (let w = 0; w < waves; w++) {
      const bodies = qs.map((q, i) => evaluationBody(q, { seed: w * qs.length + i + 1, maxAnswers, pairing, feedback, scoreFrom }));
      // a tenant per wave, so progress polling lists only this wave's evaluations
      const views = await gradeAll(svc, w === 0 ? key : await newKey(svc), bodies, { pollMs: watch ? 1000 : 200 });
      // every call the judge answered, the feedback calls included: the limit is the judge's for all of them
      const calls = views.reduce((s, v) => s + v.usage.judgeCalls + (v.usage.feedbackCalls ?? 0), 0);
      const failed = views.filter((v) => v.status !== "completed").length;
      const ms = span(views);
      ratios.push({ ratio: ms / limitMs(calls, slots, service), failed });
      memory.push(svc.workerdRss());
      first ??= { views, calls, failed, ms, stats: await sim.stats() };
    }
    if (sampler) clearInterval(sampler);
    peak = Math.max(peak, ...memory.map((m) => m.service));
    const { views, calls, failed, ms, stats } = first;
    const limit = limitMs(calls, slots, service);
    firstRatio = ms / limit;
    const feedbackCalls = views.reduce((s, v) => s + (v.usage.feedbackCalls ?? 0), 0);
    report(
      `${label}: service`,
      `${views.length} questions, ${calls} calls${feedbackCalls ? ` (${feedbackCalls} of them feedback)` : ""} (${streamed(stats)}) in ${(ms / 1000).toFixed(1)} s; limit ${(limit / 1000).toFixed(1)} s; judge maxOpen ${stats.maxOpen} (S=${slots}); failed ${failed}`,
      ms / limit,
      "<= 1.05",
    );
    if (waves > 1)
      report(
        `${label}: ${waves} waves back to back`,
        `ratio ${ratios.map((r) => r.ratio.toFixed(3)).join(", ")}; failed ${ratios.map((r) => r.failed).join(", ")}`,
        null,
        "same as (1), 0 failed",
      );
    if (watch) {
      const mb = (xs) => xs.map((x) => x.toFixed(0)).join(", ");
      // steady state: what the last waves added, once the runtime's heaps have grown to their working size
      const from = Math.max(1, waves - 2);
      const steady =
        waves >= 3 ? `; after wave ${from} to after wave ${waves}: ${(memory[waves].service - memory[from].service).toFixed(0)} MB` : "";
      report(
        `${label}: workerd memory`,
        `service RSS before and after each wave: ${mb(memory.map((m) => m.service))} MB (peak ${peak.toFixed(0)})${steady}; wrangler's dev proxy: ${mb(memory.map((m) => m.proxy))} MB`,
        null,
        "flat",
      );
      report(
        `${label}: Tournament objects in memory`,
        `at most ${resident} at once (JUDGE_MAX_RUNNING, by default 4 x S = ${4 * slots}), of ${views.length} questions a wave`,
        null,
        "bounded",
      );
    }
    const shared = views.reduce((s, v) => s + (v.usage.sharedPrefixTokens ?? 0), 0);
    const prompt = views.reduce((s, v) => s + v.usage.promptTokens, 0);
    if (shared)
      report(
        `${label}: prompt tokens`,
        `${prompt} prompt tokens, ${shared} (${((100 * shared) / prompt).toFixed(1)}%) a prefix shared across each question's calls`,
        null,
        "",
      );

    if (!plainScript) return;
    await sim.reset();
    const plain = await runBaseline(sim.url, qs, { limit: slots, maxAnswers });
    const plainStats = await sim.stats();
    const plainLimit = limitMs(plain.calls, slots, service);
    report(
      `${label}: plain script`,
      `${plain.calls} calls in ${(plain.ms / 1000).toFixed(1)} s; limit ${(plainLimit / 1000).toFixed(1)} s; judge maxOpen ${plainStats.maxOpen}`,
      plain.ms / plainLimit,
      "comparison",
    );
  });
  return firstRatio;
}

/** Rounds (paper) or bracket depth: both are ceil(log2 N) for the knockout. */
const depth = (n) => Math.ceil(Math.log2(n));

async function latency() {
  const q = questions.find((x) => x.answers.length >= 31);
  for (const jitter of [0, 0.2]) {
    await withRig(
      { slots: 256, service: T, jitter, reasoningTokens: K },
      // production's defaults: streamed calls, Cloudflare's six waiting for headers kept by the service
      { JUDGE_MAX_CONCURRENCY: 256 },
      async ({ service: svc, key }) => {
        for (const pairing of pairings.length ? pairings : [undefined]) {
          const ms = [];
          for (let seed = 1; seed <= 3; seed++) {
            const [view] = await gradeAll(svc, key, [evaluationBody(q, { seed, maxAnswers: 31, pairing, scoreFrom })], { pollMs: 1000 });
            if (view.status !== "completed") throw new Error(`latency run failed: ${view.error}`);
            ms.push(Date.parse(view.completedAt) - Date.parse(view.createdAt));
          }
          const critical = depth(31) * T;
          const m = median(ms);
          report(
            `latency N=31 ${pairing ?? "default"} jitter ${jitter}`,
            `median of 3: ${m} ms (${ms.join(", ")}); critical path ${depth(31)} x ${T} = ${critical} ms`,
            m / critical,
            jitter === 0 ? "<= 1.10" : "info",
          );
        }
      },
    );
  }
  // the same without streaming: under the six-waiting-for-headers rule a call holds its place until its
  // whole reply is ready, so at most six are judged at once (what production ran before streaming)
  await withRig(
    { slots: 256, service: T, jitter: 0, reasoningTokens: K },
    { JUDGE_MAX_CONCURRENCY: 256, JUDGE_STREAM: "false" },
    async ({ service: svc, key }) => {
      const [view] = await gradeAll(svc, key, [evaluationBody(q, { seed: 1, maxAnswers: 31, pairing: pairings[0], scoreFrom })], {
        pollMs: 1000,
      });
      const ms = Date.parse(view.completedAt) - Date.parse(view.createdAt);
      const critical = depth(31) * T;
      report(
        `latency N=31 ${pairings[0] ?? "default"} jitter 0, JUDGE_STREAM=false (six at a time)`,
        `${ms} ms; critical path ${critical} ms; 60 calls, at most 6 at once: ${Math.ceil(60 / 6)} x ${T} ms at best`,
        ms / critical,
        "info",
      );
    },
  );
}

/**
 * One round of the overhead workload: 10 Mohler questions debiased, graded at once against an instant
 * judge; the calls, the wall time (service clocks) and the workerd CPU it took.
 */
async function overheadRound({ service: svc, key }, rep) {
  const qs = questions.slice(0, 10);
  const cpu0 = svc.workerdCpuMs();
  const views = await gradeAll(
    svc,
    key,
    qs.map((x, i) => evaluationBody(x, { seed: rep * 100 + i, pairing: pairings[0], scoreFrom })),
    { pollMs: 500 },
  );
  const cpuMs = svc.workerdCpuMs() - cpu0;
  const calls = views.reduce((s, v) => s + v.usage.judgeCalls, 0);
  return { views, calls, cpuMs, wallMs: span(views) };
}

/**
 * Wall time and workerd CPU per judge call with an instant judge reasoning `reasoningTokens` words, 5
 * runs. `unwatched`: with TOURNAMENT_LIVE_GRACE_MS=0, every call reads as a call no one watches past a
 * run's first seconds (this workload's whole run is within the default 5 s, read as watched).
 */
async function overheadAt(reasoningTokens, unwatched = false) {
  const vars = unwatched ? { TOURNAMENT_LIVE_GRACE_MS: "0" } : {};
  return withRig({ slots: 1000, service: 0, jitter: 0, reasoningTokens, fullAlternatives }, vars, async (rig) => {
    const { sim } = rig;
    const perCall = [];
    const cpuPerCall = [];
    for (let rep = 0; rep < 5; rep++) {
      const { calls, cpuMs, wallMs } = await overheadRound(rig, rep);
      perCall.push(wallMs / calls);
      cpuPerCall.push(cpuMs / calls);
    }
    const label = `overhead, ${reasoningTokens} reasoning tokens${unwatched ? ", no one watching" : ""}`;
    report(
      `${label} (wall)`,
      `wall time per judge call with an instant judge, 10 questions (~520 calls) x 5: ${perCall.map((x) => x.toFixed(2)).join(", ")} ms`,
      null,
      "",
    );
    report(
      `${label} (workerd CPU)`,
      `workerd CPU per judge call (POST, pump, storage, gate, D1, polling): ${cpuPerCall.map((x) => x.toFixed(2)).join(", ")} ms; ${streamed(await sim.stats())}, with logprobs`,
      null,
      "",
    );
    return { wall: median(perCall), cpu: median(cpuPerCall) };
  });
}

/**
 * The overhead at no reasoning and at K tokens, each in a fresh rig, then both medians on one line; and
 * at K again with no one watching (TOURNAMENT_LIVE_GRACE_MS=0), a pipeline's calls past a run's first seconds.
 */
async function overhead() {
  const levels = K === 0 ? [0] : [0, K];
  const runs = [];
  for (const k of levels) runs.push(await overheadAt(k));
  const quiet = await overheadAt(K, true);
  report(
    `overhead median, ${levels.join(" vs ")} reasoning tokens`,
    `workerd CPU per call ${runs.map((r, i) => `${r.cpu.toFixed(2)} ms at ${levels[i]}`).join(", ")} (read as watched: the run's first 5 s), ${quiet.cpu.toFixed(2)} ms at ${K} with no one watching; wall ${runs.map((r, i) => `${r.wall.toFixed(2)} ms at ${levels[i]}`).join(", ")}, ${quiet.wall.toFixed(2)} ms at ${K} with no one watching`,
    null,
    "CPU <= 0.7 ms at 0, <= 1.0 ms at 150 (issue 29)",
  );
}

console.log(
  `knockout-judge bench: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? "?"}), Node ${process.version}, judge-sim ${shared.sim}`,
);
if (only.has("throughput")) {
  results.begin("throughput");
  console.log(`\n(1) throughput: 40 Mohler questions, debiased, S=${S}, T=${T} ms, ${K} reasoning tokens streamed with logprobs`);
  const qs = questions.slice(0, Number(flag("questions", 40)));
  const real = { reasoningTokens: K, scoreFrom };
  const without = await throughput("throughput", qs, { slots: S, service: T, pairing: pairings[0], ...real });
  if (flag("feedback", "none") === "judge") {
    console.log(`\n(1b) throughput with feedback for the students: the same questions, feedback "judge"`);
    const withFeedback = await throughput("throughput, feedback", qs, {
      slots: S,
      service: T,
      pairing: pairings[0],
      feedback: "judge",
      plainScript: false,
      ...real,
    });
    report(
      "throughput: feedback's cost per call",
      `ratio per call ${without.toFixed(3)} without feedback, ${withFeedback.toFixed(3)} with; difference ${(withFeedback - without).toFixed(3)}`,
      null,
      "|difference| <= 0.02",
    );
  }
}
if (only.has("latency")) {
  results.begin("latency");
  console.log(`\n(2) latency: one question of N=31, debiased, free capacity, T=${T} ms, ${K} reasoning tokens streamed with logprobs`);
  await latency();
}
if (only.has("overhead")) {
  results.begin("overhead");
  console.log(
    `\n(3) overhead: a judge that answers at once, at ${K === 0 ? "0" : `0 and ${K}`} reasoning tokens streamed with logprobs (${fullAlternatives ? "20 alternatives a token, as vLLM sends them" : "judge-sim's alternatives"})`,
  );
  await overhead();
}
if (only.has("profile")) {
  results.begin("profile");
  console.log(
    `\n(13) profile: the overhead workload once under workerd's CPU profiler, at ${K === 0 ? "0" : `0 and ${K}`} reasoning tokens`,
  );
  const { profile } = await import("./profile.mjs");
  await profile({
    levels: K === 0 ? [0] : [0, K],
    withRig,
    overheadWork: overheadRound,
    inspectorOf: () => port.service + 50,
    report,
    fullAlternatives,
  });
}
if (only.has("bill")) {
  results.begin("bill");
  const n = Number(flag("questions", 40));
  console.log(`\n(14) bill: ${n} Mohler questions debiased, ${K} reasoning tokens streamed with logprobs, S=${S}, T=${T} ms, metered`);
  const { bill } = await import("./bill.mjs");
  await bill({
    questions: questions.slice(0, n),
    slots: S,
    service: T,
    reasoningTokens: K,
    withRig,
    inspectorOf: () => port.service + 50,
    report,
    pairing: pairings[0],
  });
}
if (only.has("scale")) {
  results.begin("scale");
  const n = Number(flag("scale", 1000));
  const t = Number(flag("scale-service", 200));
  const answers = Number(flag("scale-answers", 8));
  const waves = Number(flag("scale-waves", 5));
  console.log(`\n(4) scale: ${n} questions of ${answers} answers queued at once, ${waves} waves, S=${S}, T=${t} ms`);
  const qs = Array.from({ length: n }, (_, i) => questions[i % questions.length]);
  await throughput("scale", qs, { slots: S, service: t, maxAnswers: answers, waves, memory: true, pairing: pairings[0] });
}

if (only.has("pool")) {
  results.begin("pool");
  console.log(`\n(7) pool: 40 Mohler questions, debiased, on two judge-sims of S=${S} slots, T=${T} ms (JUDGE_ENDPOINTS)`);
  const { pool } = await import("./pool.mjs");
  await pool({ shared, questions: questions.slice(0, Number(flag("questions", 40))), slots: S, service: T, report, port });
}

if (only.has("pollers")) {
  results.begin("pollers");
  const answers = Number(flag("poll-answers", 256));
  const chars = Number(flag("poll-chars", 5000));
  const count = Number(flag("pollers", 8));
  console.log(
    `\n(8) pollers: one evaluation of ${answers} answers of ~${chars} characters, alone and read by ${count} clients back to back, S=${S}, T=${T} ms`,
  );
  const { pollers } = await import("./pollers.mjs");
  await pollers({ shared, questions, slots: S, service: T, report, port, answers, chars, pollers: count });
}

if (only.has("erase")) {
  results.begin("erase");
  const answers = Number(flag("erase-answers", 1000));
  console.log(`\n(9) erase: a batch of ${answers} answers, graded, then erased`);
  const { erase } = await import("./erase.mjs");
  await erase({ shared, questions, slots: S, report, port, answers });
}

if (only.has("export")) {
  results.begin("export");
  const answers = Number(flag("export-answers", 10_000));
  console.log(`\n(12) export: a tenant of ${answers} answers, graded, then exported as NDJSON`);
  const { exportTenant } = await import("./export.mjs");
  await exportTenant({ shared, questions, slots: S, report, port, answers });
}

if (only.has("quality")) {
  results.begin("quality");
  console.log("\n(5) quality: each method's pooled Pearson with the human scores against its judge calls (judge-sim, no service)");
  const { quality } = await import("./quality.mjs");
  await quality({ shared, flag, port: port.sim });
}

if (only.has("length")) {
  results.begin("length");
  console.log(
    "\n(10) length: Pearson with the human scores, raw and length-controlled, with and without judge-sim's --length-bias (no service)",
  );
  const { length } = await import("./length.mjs");
  await length({ shared, flag, port: port.sim });
}

if (only.has("panel")) {
  results.begin("panel");
  console.log("\n(15) panel: three judges alone and as a panel, cycle and all, at the same judge requests (judge-sim, no service)");
  const { panel } = await import("./panel.mjs");
  await panel({ shared, flag, port: port.sim });
}

if (only.has("floor")) {
  results.begin("floor");
  console.log(
    `\n(14) floor: workerd's own CPU per judge call, a minimal Worker with none of the service's code, at ${K === 0 ? "0" : `0 and ${K}`} reasoning tokens`,
  );
  const { floor } = await import("./floor.mjs");
  await floor({ shared, port, report, questions, reasoningTokens: K, fullAlternatives });
}
if (only.has("ratings")) {
  results.begin("ratings");
  console.log("\n(17) ratings: the largest POST /v1/ratings the service admits, in CPU (no service)");
  const { ratingsBench } = await import("./ratings.mjs");
  ratingsBench({ report });
}
if (only.has("review")) {
  results.begin("review");
  console.log("\n(15) review: issue 26's flags over several draws of judge-sim's noise (judge-sim, no service)");
  const { reviewSeeds } = await import("./review-seeds.mjs");
  await reviewSeeds({ shared, flag, port: port.sim });
}
if (only.has("placement")) {
  results.begin("placement");
  console.log("\n(16) placement: where the knockout's extra calls go, over several draws of judge-sim's noise (judge-sim, no service)");
  const { placementSeeds } = await import("./placement-seeds.mjs");
  await placementSeeds({ shared, flag, port: port.sim });
}
if (only.has("ties")) {
  results.begin("ties");
  console.log("\n(11) ties: the knockout's matches left to the coin flip, written scores and logprobs (judge-sim, no service)");
  const { ties } = await import("./ties.mjs");
  await ties({ shared, flag, port: port.sim });
}

if (only.has("calibration")) {
  results.begin("calibration");
  console.log(
    "\n(6) calibration: mean absolute error against the human scores of the answers a teacher did not grade, by the number k of grades",
  );
  const { calibration } = await import("./calibration.mjs");
  await calibration({ shared, flag, port: port.sim });
}

results.end();
console.log("\n| target | figure | ratio | goal |\n|---|---|---|---|");
for (const r of rows) console.log(`| ${r.target} | ${r.figure} | ${r.ratio === null ? "" : r.ratio.toFixed(3)} | ${r.goal} |`);
results.write();
process.exit(0);
