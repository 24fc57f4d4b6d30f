// `npm run bench -- --only pollers`: does reading a large running evaluation slow its grading?
// One evaluation of N answers (256 by default) of about C characters (5,000) is graded twice: once
// alone, once while P clients (8) read it with GET /v1/evaluations/:id back to back, as a naive client
// would (no If-None-Match, no pause, Retry-After ignored, and a 429 read again at once: the worst a
// tenant can do; past its key's read budget it gets 429s, counted apart from the 200s). The
// target is its duration with the pollers against its duration alone. Meanwhile another tenant grades
// a small evaluation (16 answers), whose durations are reported beside, as the issue measured them.
// Answers are Mohler answers padded with a filler judge-sim cannot mistake for an answer, under a
// question that is none of the dataset's, so judge-sim looks each one up among all its answers.
import { api, evaluationBody, newKey, startJudgeSim, startService } from "./lib.mjs";

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** N distinct Mohler answers, each padded to about `chars` characters. */
function largeBody(questions, { answers: n, chars, seed }) {
  const all = [...new Set(questions.flatMap((q) => q.answers.map((a) => a.text.trim())))];
  // judge-sim must find each answer once and only it: no answer that holds another or stands inside
  // another, and plain ASCII without markup, which the prompt might fence or escape
  const picked = all.filter(
    (text) =>
      text.length >= 60 &&
      /^[\x20-\x7e\n]*$/.test(text) &&
      !/[<>]/.test(text) &&
      !all.some((o) => o !== text && (o.includes(text) || text.includes(o))),
  );
  if (picked.length < n) throw new Error(`only ${picked.length} usable answers for ${n}`);
  const filler = " ~".repeat(Math.ceil(chars / 2));
  return {
    question: "Explain, in your own words, the concept the course discussed this week.",
    reference: "A complete answer states the concept, why it matters and an example.",
    maxScore: 5,
    debias: true,
    seed,
    answers: picked.slice(0, n).map((text, i) => ({ id: `a${i}`, text: `${text}\n${filler}`.slice(0, Math.max(chars, text.length + 1)) })),
  };
}

async function post(svc, key, body) {
  const r = await api(svc, "POST", "/v1/evaluations", { key, body });
  if (r.status !== 202) throw new Error(`POST /v1/evaluations: ${r.status} ${JSON.stringify(r.json).slice(0, 300)}`);
  return r.json.id;
}

/** Waits on the tenant's list (D1 only, a small answer) until `id` has ended; its duration by the service's clocks. */
async function finished(svc, key, id) {
  for (;;) {
    const r = await api(svc, "GET", "/v1/evaluations?limit=5", { key });
    const e = r.json.data?.find((x) => x.id === id);
    if (e && (e.status === "completed" || e.status === "failed") && e.completedAt) {
      if (e.status !== "completed")
        throw new Error(`evaluation ${id} ${e.status}: ${(await api(svc, "GET", `/v1/evaluations/${id}`, { key })).json.error}`);
      return Date.parse(e.completedAt) - Date.parse(e.createdAt);
    }
    await sleep(250);
  }
}

export async function pollers({ shared, questions, slots: S, service: T, report, port, answers: N, chars: C, pollers: P }) {
  const small = questions.find((q) => q.answers.length >= 16);
  const sim = await startJudgeSim(shared, port.sim, { slots: S, service: T });
  let svc;
  try {
    svc = await startService(port.service, { JUDGE_BASE_URL: `${sim.url}/v1`, JUDGE_MODEL: "judge-sim", JUDGE_MAX_CONCURRENCY: S });
    const key = await newKey(svc);
    const other = await newKey(svc);

    async function round(seed, withPollers) {
      const id = await post(svc, key, largeBody(questions, { answers: N, chars: C, seed }));
      const smallId = await post(svc, other, evaluationBody(small, { seed, maxAnswers: 16 }));
      let stop = false;
      // 200s and their bytes apart from the refusals (429 past the key's read budget), which the pollers ignore
      const reads = { calls: 0, bytes: 0, full: 0, statuses: new Map() };
      const readers = withPollers
        ? Array.from({ length: P }, async () => {
            while (!stop) {
              const r = await fetch(`${svc.url}/v1/evaluations/${id}`, { headers: { authorization: `Bearer ${key}` } });
              const body = await r.arrayBuffer();
              reads.calls++;
              if (r.status === 200) {
                reads.full++;
                reads.bytes += body.byteLength;
              }
              reads.statuses.set(r.status, (reads.statuses.get(r.status) ?? 0) + 1);
            }
          })
        : [];
      const [ms, smallMs] = await Promise.all([finished(svc, key, id), finished(svc, other, smallId)]);
      stop = true;
      await Promise.all(readers);
      return { ms, smallMs, reads };
    }

    const alone = await round(1, false);
    const busy = await round(2, true);
    const st = [...busy.reads.statuses]
      .sort(([a], [b]) => a - b)
      .map(([s, n]) => `${n} x ${s}`)
      .join(", ");
    report(
      "pollers: large evaluation alone",
      `${N} answers of ~${C} chars, debiased, S=${S}, T=${T} ms: ${(alone.ms / 1000).toFixed(1)} s; another tenant's 16 answers meanwhile ${(alone.smallMs / 1000).toFixed(1)} s`,
      null,
      "",
    );
    report(
      `pollers: with ${P} pollers`,
      `${(busy.ms / 1000).toFixed(1)} s while ${P} clients read it back to back (${busy.reads.calls} reads: ${st}; ${(busy.reads.bytes / 1e6).toFixed(0)} MB in the 200s, ${(busy.reads.bytes / Math.max(1, busy.reads.full) / 1e6).toFixed(2)} MB each); another tenant's 16 answers meanwhile ${(busy.smallMs / 1000).toFixed(1)} s (${(busy.smallMs / alone.smallMs).toFixed(2)}x)`,
      busy.ms / alone.ms,
      "<= 1.2",
    );
  } finally {
    await svc?.stop();
    await sim.stop();
  }
}
