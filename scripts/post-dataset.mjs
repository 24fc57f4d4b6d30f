#!/usr/bin/env node
// Posts questions from a dataset file (one question per line: {question_id, question, reference?,
// max_score, answers: [{id, text}]}) as evaluations to a running service, waits for them all, and prints
// what they cost. With --judge-sim it also reads that judge's /stats and checks that no call was sent
// again after it had been answered (the restart and fault runs of issue 4).
//
//   node scripts/post-dataset.mjs --data FILE [--api http://127.0.0.1:8787] [--admin TOKEN] [--count 20]
//        [--state run.json] [--resume] [--no-wait] [--timeout 600] [--judge-sim http://127.0.0.1:8102]
//        [--snapshot recorded.json] [--recorded-before recorded.json]
//
// --state keeps the key and evaluation ids, so `--resume` can wait for the same evaluations after the
// service was restarted; --no-wait posts and exits. --snapshot (with --resume) saves the calls recorded so
// far (GET of each running evaluation) and exits: take it just before stopping the service; after the
// restart, --recorded-before counts the judge requests for those calls that came after the snapshot
// (there must be none).
import fs from "node:fs";

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] && !args[i + 1].startsWith("--") ? args[i + 1] : fallback;
};
const flag = (name) => args.includes(`--${name}`);
const data = opt("data");
if (!data) {
  console.error(
    "usage: post-dataset.mjs --data FILE [--api URL] [--admin TOKEN] [--count N] [--state FILE] [--resume] [--no-wait] [--judge-sim URL]",
  );
  process.exit(2);
}
const api = opt("api", "http://127.0.0.1:8787").replace(/\/+$/, "");
const admin = opt("admin", "dev-admin-token");
const count = Number(opt("count", 20));
const stateFile = opt("state");
const timeoutS = Number(opt("timeout", 600));
const judgeSim = opt("judge-sim");

async function call(method, path, key, body) {
  const res = await fetch(`${api}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

const questions = fs
  .readFileSync(data, "utf8")
  .split("\n")
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l))
  .filter((q) => !q.ignored_in_published_work)
  .slice(0, count);

let state;
if (flag("resume") && stateFile && fs.existsSync(stateFile)) {
  state = JSON.parse(fs.readFileSync(stateFile, "utf8"));
  console.log(`resuming ${state.evaluations.length} evaluations from ${stateFile}`);
} else {
  const issued = await call("POST", "/v1/keys", admin, { tenant: `dataset-${Date.now()}` });
  state = { key: issued.key, evaluations: [] };
  const started = Date.now();
  for (const q of questions) {
    const body = {
      question: q.question,
      ...(q.reference ? { reference: q.reference } : {}),
      maxScore: q.max_score > 0 ? q.max_score : 10,
      answers: q.answers.map((a) => ({ id: String(a.id), text: a.text })),
      seed: 1,
      metadata: { questionId: q.question_id },
    };
    const created = await call("POST", "/v1/evaluations", state.key, body);
    state.evaluations.push({ id: created.id, questionId: q.question_id, answers: q.answers.length });
  }
  console.log(
    `posted ${state.evaluations.length} evaluations (${state.evaluations.reduce((s, e) => s + e.answers, 0)} answers) in ${Date.now() - started} ms`,
  );
  if (stateFile) fs.writeFileSync(stateFile, JSON.stringify(state, null, 2));
}
if (flag("no-wait")) process.exit(0);

const snapshotFile = opt("snapshot");
if (snapshotFile) {
  const at = Date.now();
  const calls = [];
  for (const e of state.evaluations) {
    const r = await call("GET", `/v1/evaluations/${e.id}`, state.key);
    for (const m of r.matches) for (const c of m.calls) calls.push({ questionId: e.questionId, order: c.order });
  }
  fs.writeFileSync(snapshotFile, JSON.stringify({ at, calls }));
  console.log(`snapshot: ${calls.length} calls recorded by ${new Date(at).toISOString()}`);
  process.exit(0);
}

const started = Date.now();
const results = new Map();
while (results.size < state.evaluations.length) {
  for (const e of state.evaluations) {
    if (results.has(e.id)) continue;
    try {
      const r = await call("GET", `/v1/evaluations/${e.id}`, state.key);
      if (["completed", "failed", "cancelled"].includes(r.status)) results.set(e.id, r);
    } catch (err) {
      console.error(`GET ${e.id}: ${err.message}`); // the service may be restarting
    }
  }
  if (results.size < state.evaluations.length) {
    if (Date.now() - started > timeoutS * 1000) {
      console.error(`timed out: ${state.evaluations.length - results.size} evaluations not finished`);
      break;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}

const all = [...results.values()];
const by = (s) => all.filter((r) => r.status === s).length;
const sum = (f) => all.reduce((s, r) => s + f(r), 0);
console.log(
  `finished ${all.length}/${state.evaluations.length} in ${((Date.now() - started) / 1000).toFixed(1)} s of waiting: completed ${by("completed")}, failed ${by("failed")}, cancelled ${by("cancelled")}`,
);
console.log(
  `usage: judgeCalls ${sum((r) => r.usage.judgeCalls)}, retries ${sum((r) => r.usage.retries)}, parseFailures ${sum((r) => r.usage.parseFailures)}, matches ${sum((r) => r.matches.length)}`,
);
for (const r of all.filter((r) => r.status !== "completed")) console.log(`  ${r.id}: ${r.status} ${r.error ?? ""}`);

if (judgeSim) {
  // judge-sim knows answers by their text, so calls are compared by the texts they hold: two answers of
  // one question with the same text make the same prompt, and count as the same call.
  const stats = await (await fetch(`${judgeSim.replace(/\/+$/, "")}/stats`)).json();
  const text = new Map(questions.flatMap((q) => q.answers.map((a) => [`${q.question_id}|${a.id}`, a.text.trim()])));
  // A very short answer ("coding") can also stand in the question or the reference: judge-sim then
  // finds it there first, before the two fenced answers. The fenced pair is the last two it found, and
  // pairs are compared unordered (a debiased match asks both orders, so counts still add up).
  const key = (q, ids) =>
    `${q}|${ids
      .slice(-2)
      .map((id) => text.get(`${q}|${id}`) ?? `?${id}`)
      .sort()
      .join("\u0000")}`;
  const ours = new Set(state.evaluations.map((e) => e.questionId));
  const okBy = new Map();
  const outcomes = {};
  for (const c of stats.calls) {
    outcomes[c.outcome] = (outcomes[c.outcome] ?? 0) + 1;
    if (c.outcome === "ok" && ours.has(c.q)) okBy.set(key(c.q, c.ids), (okBy.get(key(c.q, c.ids)) ?? 0) + 1);
  }
  const recordedBy = new Map();
  for (const e of state.evaluations) {
    for (const m of results.get(e.id)?.matches ?? []) {
      for (const c of m.calls) recordedBy.set(key(e.questionId, c.order), (recordedBy.get(key(e.questionId, c.order)) ?? 0) + 1);
    }
  }
  let recorded = 0;
  let extra = 0;
  let missing = 0;
  for (const [k, n] of recordedBy) {
    recorded += n;
    const ok = okBy.get(k) ?? 0;
    extra += Math.max(0, ok - n);
    missing += Math.max(0, n - ok);
  }
  const stray = [...okBy].filter(([k]) => !recordedBy.has(k)).reduce((s, [, n]) => s + n, 0);
  console.log(
    `judge-sim: requests ${stats.requests}, outcomes ${JSON.stringify(outcomes)}, maxInFlight ${stats.maxInFlight}, maxOpen ${stats.maxOpen}`,
  );
  const before = opt("recorded-before");
  if (before) {
    const snap = JSON.parse(fs.readFileSync(before, "utf8"));
    // here the order counts: after a restart a match may have one of its two calls recorded, not the other
    const key = (q, ids) =>
      `${q}|${ids
        .slice(-2)
        .map((id) => text.get(`${q}|${id}`) ?? `?${id}`)
        .join("\u0000")}`;
    const recordedBy = new Map();
    for (const e of state.evaluations) {
      for (const m of results.get(e.id)?.matches ?? []) {
        for (const c of m.calls) recordedBy.set(key(e.questionId, c.order), (recordedBy.get(key(e.questionId, c.order)) ?? 0) + 1);
      }
    }
    const earlier = new Map();
    for (const c of snap.calls) earlier.set(key(c.questionId, c.order), (earlier.get(key(c.questionId, c.order)) ?? 0) + 1);
    // a prompt shared by calls of which some were not yet recorded (duplicate answer texts) is left out
    // and an answer whose text also stands in the question or reference cannot be told apart by order
    const phantom = new Set(
      questions.flatMap((q) =>
        q.answers.filter((a) => `${q.question} ${q.reference ?? ""}`.includes(a.text.trim())).map((a) => `${q.question_id}|${a.id}`),
      ),
    );
    const clear = (c) => !c.order.some((id) => phantom.has(`${c.questionId}|${id}`));
    for (const c of snap.calls.filter((c) => !clear(c))) earlier.delete(key(c.questionId, c.order));
    const settled = new Set([...earlier].filter(([k, n]) => n === recordedBy.get(k)).map(([k]) => k));
    const later = stats.calls.filter((c) => c.t > snap.at && ours.has(c.q) && settled.has(key(c.q, c.ids)));
    console.log(
      `calls recorded before the snapshot: ${snap.calls.length} (${settled.size} distinct prompts checked, ${snap.calls.filter((c) => !clear(c)).length} left out: an answer text that also stands in the question or reference); judge requests for them after it: ${later.length}`,
    );
  }
  console.log(
    `recorded calls ${recorded}; good answers the judge sent for them: ${recorded - missing + extra} (extra, i.e. a call answered again after its answer: ${extra}; recorded without a good answer: ${missing}; good answers for calls never recorded: ${stray})`,
  );
}
