// `npm run bench -- --only erase`: how long erasing a large batch takes. A batch of Mohler questions
// with 1,000 answers in all (`--erase-answers`) is graded by judge-sim answering at once (the grading is
// not what is measured), then erased with POST /v1/batches/:id/erase: the figure is that request's
// wall time, which covers every question's Durable Object, every D1 row, the webhook queue and the
// idempotency rows; the target is under 10 s (issue 27). Then it checks the batch answers 410.
import { api, evaluationBody, newKey, startJudgeSim, startService } from "./lib.mjs";

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export async function erase({ shared, questions, slots: S, report, port, answers: total }) {
  // whole questions until `total` answers, the last one cut to fit
  const items = [];
  let count = 0;
  for (const q of questions) {
    if (count >= total) break;
    const body = evaluationBody(q, { maxAnswers: total - count });
    if (body.answers.length < 2) break;
    items.push({ ...body, debias: false });
    count += body.answers.length;
  }
  const sim = await startJudgeSim(shared, port.sim, { slots: S, service: 0 });
  let svc;
  try {
    svc = await startService(port.service, { JUDGE_BASE_URL: `${sim.url}/v1`, JUDGE_MODEL: "judge-sim", JUDGE_MAX_CONCURRENCY: S });
    const key = await newKey(svc, ["admin"]);
    const created = await api(svc, "POST", "/v1/batches", { key, body: { items } });
    if (created.status !== 202) throw new Error(`POST /v1/batches: ${created.status} ${JSON.stringify(created.json).slice(0, 300)}`);
    const id = created.json.id;
    for (;;) {
      const r = await api(svc, "GET", `/v1/batches/${id}`, { key });
      if (r.json.status !== "running") break;
      await sleep(500);
    }
    const started = performance.now();
    const erased = await api(svc, "POST", `/v1/batches/${id}/erase`, { key });
    const ms = performance.now() - started;
    if (erased.status !== 200) throw new Error(`POST /v1/batches/${id}/erase: ${erased.status} ${JSON.stringify(erased.json)}`);
    const after = await api(svc, "GET", `/v1/batches/${id}`, { key });
    report(
      "erase: a batch",
      `${items.length} questions, ${count} answers graded, erased in ${(ms / 1000).toFixed(2)} s; the batch answers ${after.status} afterwards`,
      null,
      "< 10 s, then 410",
    );
  } finally {
    await svc?.stop();
    await sim.stop();
  }
}
