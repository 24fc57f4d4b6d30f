// `npm run bench -- --only pool`: the service on a pool of two judge-sims of S slots each (JUDGE_ENDPOINTS).
// (a) Both up: the time to grade the questions against the pool's combined limit, and each judge's
//     most requests open at once against its cap.
// (b) The same work with the second judge-sim killed at a third of (a)'s time: every evaluation must
//     complete with the same calls as in (a) (nothing lost, nothing recorded twice), and the time lost
//     against the ideal (both judges' pace until the kill, one judge's after it) should be about the
//     calls that were in flight on the dead one: S calls of T ms, redone on the survivor, one T.
import { evaluationBody, gradeAll, newKey, span, startJudgeSim, startService } from "./lib.mjs";

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export async function pool({ shared, questions, slots: S, service: T, report, port }) {
  const qs = questions;
  const bodies = qs.map((q, i) => evaluationBody(q, { seed: i + 1 }));

  async function run(killAtMs) {
    const sims = [
      await startJudgeSim(shared, port.sim, { slots: S, service: T }),
      await startJudgeSim(shared, port.sim + 1, { slots: S, service: T }),
    ];
    let service;
    try {
      service = await startService(port.service, {
        JUDGE_ENDPOINTS: JSON.stringify(sims.map((s) => ({ url: `${s.url}/v1`, maxConcurrency: S }))),
        JUDGE_MODEL: "judge-sim",
      });
      const key = await newKey(service);
      let killedAt = null;
      let killedStats = null;
      const killer =
        killAtMs === null
          ? null
          : sleep(killAtMs).then(async () => {
              killedStats = await sims[1].stats();
              killedAt = Date.now();
              await sims[1].stop();
            });
      const started = Date.now();
      const views = await gradeAll(service, key, bodies, { pollMs: 200 });
      await killer;
      const judges = await (await fetch(`${service.url}/v1/judges`, { headers: { authorization: `Bearer ${key}` } })).json();
      const stats = [await sims[0].stats(), killedStats ?? (await sims[1].stats())];
      return { views, stats, judges, killedAfter: killedAt === null ? null : killedAt - started };
    } finally {
      await service?.stop();
      for (const s of sims) await s.stop();
    }
  }

  const calls = (views) => views.reduce((s, v) => s + v.usage.judgeCalls, 0);
  const byEndpoint = (views) => {
    const count = new Map();
    for (const v of views) for (const m of v.matches) for (const c of m.calls) count.set(c.endpoint, (count.get(c.endpoint) ?? 0) + 1);
    return [...count.values()];
  };

  const both = await run(null);
  const n = calls(both.views);
  const ms = span(both.views);
  const limit = Math.ceil(n / (2 * S)) * T;
  report(
    "pool: two judge-sims, both up",
    `${both.views.length} questions, ${n} calls in ${(ms / 1000).toFixed(1)} s; limit of 2 x S=${S} at T=${T} ms ${(limit / 1000).toFixed(1)} s; calls per judge ${byEndpoint(both.views).join(" + ")}; judge maxOpen ${both.stats.map((s) => s.maxOpen).join(", ")} (cap ${S} each); failed ${both.views.filter((v) => v.status !== "completed").length}`,
    ms / limit,
    "<= 1.05, maxOpen <= S",
  );

  const killAt = Math.round(ms / 3);
  const killed = await run(killAt);
  const n2 = calls(killed.views);
  const ms2 = span(killed.views);
  const same = killed.views.every((v, i) => v.status === "completed" && v.usage.judgeCalls === both.views[i].usage.judgeCalls);
  // the ideal: both judges' pace until the kill, the survivor's after it
  const t = killed.killedAfter;
  const doneByKill = Math.min(n2, Math.floor(t / T) * 2 * S);
  const ideal = t + Math.ceil((n2 - doneByKill) / S) * T;
  // what the service's own pace (its ratio with both up) makes of that ideal; the rest is lost to the kill
  const paced = ideal * (ms / limit);
  const b = killed.judges.endpoints?.[1];
  report(
    "pool: one judge-sim killed at a third",
    `killed after ${(t / 1000).toFixed(1)} s; ${killed.views.filter((v) => v.status === "completed").length}/${killed.views.length} completed, ${n2} calls (${same ? "each question's count as with both up" : "COUNTS DIFFER from both up"}), retries ${killed.views.reduce((s, v) => s + v.usage.retries, 0)}; ${(ms2 / 1000).toFixed(1)} s against an ideal of ${(ideal / 1000).toFixed(1)} s (both judges' limit until the kill, one's after), ${(paced / 1000).toFixed(1)} s at the service's pace with both up (x ${(ms / limit).toFixed(3)}): ${((ms2 - paced) / 1000).toFixed(2)} s = ${((ms2 - paced) / T).toFixed(2)} T lost to the kill (the dead judge had ${S} calls of T in flight: 1 T of the survivor's time); its circuit ${b?.circuit?.state}, ${b?.failed} failed attempts`,
    ms2 / ideal,
    "all complete, about 1 T lost",
  );
}
