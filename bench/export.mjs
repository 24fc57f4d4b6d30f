// `npm run bench -- --only export`: does a large tenant export in constant memory? A tenant of 10,000
// answers (`--export-answers`: Mohler questions, repeated in batches until there are that many) is
// graded by judge-sim answering at once (the grading is not what is measured), then exported with
// GET /v1/tenant/export, read as a client reads a stream. The figures: the export's wall time, its size,
// and the resident memory of workerd (the runtime that runs the Worker and local D1) before it, at its
// peak while it streams (sampled every 50 ms) and after it. Constant memory: the peak stays near the
// before, whatever the tenant's size, since the stream reads one item from D1 at a time.
import { api, evaluationBody, newKey, startJudgeSim, startService } from "./lib.mjs";

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const mb = (m) => `${m.service.toFixed(0)} MB`;

export async function exportTenant({ shared, questions, slots: S, report, port, answers: total }) {
  // whole questions, cycled, until `total` answers; 100 questions a batch
  const items = [];
  let count = 0;
  for (let i = 0; count < total; i++) {
    const body = evaluationBody(questions[i % questions.length], { maxAnswers: total - count });
    if (body.answers.length < 2) break;
    items.push({ ...body, debias: false });
    count += body.answers.length;
  }
  const sim = await startJudgeSim(shared, port.sim, { slots: S, service: 0 });
  let svc;
  try {
    svc = await startService(port.service, { JUDGE_BASE_URL: `${sim.url}/v1`, JUDGE_MODEL: "judge-sim", JUDGE_MAX_CONCURRENCY: S });
    const key = await newKey(svc, ["admin"]);
    const batches = [];
    for (let i = 0; i < items.length; i += 100) {
      const created = await api(svc, "POST", "/v1/batches", { key, body: { items: items.slice(i, i + 100) } });
      if (created.status !== 202) throw new Error(`POST /v1/batches: ${created.status} ${JSON.stringify(created.json).slice(0, 300)}`);
      batches.push(created.json.id);
    }
    for (const id of batches)
      for (;;) {
        const r = await api(svc, "GET", `/v1/batches/${id}`, { key });
        if (r.json.status !== "running") break;
        await sleep(1000);
      }
    // let the finished tournaments' objects settle before the memory is read
    await sleep(3000);
    const before = svc.workerdRss();
    let peak = before.service;
    const watcher = setInterval(() => {
      peak = Math.max(peak, svc.workerdRss().service);
    }, 50);
    const started = performance.now();
    const r = await fetch(`${svc.url}/v1/tenant/export`, { headers: { authorization: `Bearer ${key}` } });
    if (r.status !== 200) throw new Error(`GET /v1/tenant/export: ${r.status} ${await r.text()}`);
    let bytes = 0;
    let lines = 0;
    let exportedAnswers = 0;
    let rest = "";
    const decoder = new TextDecoder();
    for await (const chunk of r.body) {
      bytes += chunk.length;
      const text = rest + decoder.decode(chunk, { stream: true });
      const parts = text.split("\n");
      rest = parts.pop();
      for (const part of parts) {
        lines++;
        if (part.startsWith('{"type":"answer"')) exportedAnswers++;
      }
    }
    const ms = performance.now() - started;
    clearInterval(watcher);
    const after = svc.workerdRss();
    report(
      "export: a tenant",
      `${items.length} questions, ${count} answers; exported ${exportedAnswers} answers in ${lines} lines, ${(bytes / 1e6).toFixed(1)} MB, in ${(ms / 1000).toFixed(2)} s; workerd memory ${mb(before)} before, ${peak.toFixed(0)} MB peak, ${mb(after)} after`,
      null,
      "every answer; memory flat",
    );
  } finally {
    await svc?.stop();
    await sim.stop();
  }
}
