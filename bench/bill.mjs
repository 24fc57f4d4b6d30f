// `npm run bench -- --only bill`: what grading costs on Cloudflare, per 1,000 graded answers (issue 29).
// Mohler questions, the debiased knockout, the judge reasoning K tokens streamed with logprobs, graded
// as the throughput target grades them (judge-sim of S slots at T ms a call), with METER_USAGE on: the
// service counts D1's rows from D1's own result `meta` and every request to a Durable Object (RPC call
// or fetch through a stub) and the rows its Tournament objects write (src/platform/meter.ts); the
// bench reads that tally over the inspector. Each count is priced with bench/prices.mjs and printed
// beside the judge's tokens for the same answers. What cannot be observed locally is estimated, and
// the line says how.
import fs from "node:fs";
import path from "node:path";
import { evaluationBody, gradeAll, sent, span } from "./lib.mjs";
import { PRICES_READ, prices } from "./prices.mjs";
import { devtools } from "./profile.mjs";

/**
 * The service isolate's usage tally (globalThis.__knockoutMeter), read over the inspector: one
 * connection for the whole run, since the isolate's context is announced once, on Runtime.enable.
 */
async function tallyReader(inspectorPort) {
  const dt = await devtools(inspectorPort);
  await dt.send("Runtime.enable");
  for (let i = 0; i < 50 && dt.contexts.length === 0; i++) await new Promise((r) => setTimeout(r, 100));
  const contextId = dt.contexts[0]?.id;
  if (contextId === undefined) throw new Error("the inspector announced no execution context");
  return {
    read: async () => {
      const { result } = await dt.send("Runtime.evaluate", {
        expression: "JSON.stringify(globalThis.__knockoutMeter ?? null)",
        returnByValue: true,
        contextId,
      });
      const tally = JSON.parse(result.value ?? "null");
      if (!tally) throw new Error("no usage tally in the service's isolate: is METER_USAGE on?");
      return tally;
    },
    close: () => dt.close(),
  };
}

function minus(after, before) {
  const objects = {};
  for (const [k, n] of Object.entries(after.objects)) objects[k] = n - (before.objects[k] ?? 0);
  return {
    d1: Object.fromEntries(Object.entries(after.d1).map(([k, n]) => [k, n - before.d1[k]])),
    objects,
    objectSql: Object.fromEntries(Object.entries(after.objectSql).map(([k, n]) => [k, n - before.objectSql[k]])),
  };
}

/** Bytes of the SQLite files (database and WAL) under `dir`, by the folder they are in. */
function sqliteBytes(dir) {
  const out = { d1: 0, tournament: 0, tournaments: 0, other: 0 };
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.sqlite(-wal)?$/.test(e.name)) {
        const bytes = fs.statSync(p).size;
        if (p.includes("D1DatabaseObject")) out.d1 += bytes;
        else if (p.includes("-Tournament")) {
          out.tournament += bytes;
          if (e.name.endsWith(".sqlite")) out.tournaments++;
        } else out.other += bytes;
      }
    }
  };
  walk(dir);
  return out;
}

const usd = (x) => (x < 0.01 ? `$${x.toFixed(4)}` : `$${x.toFixed(3)}`);

export async function bill({ questions, slots, service, reasoningTokens, withRig, inspectorOf, report, pairing }) {
  await withRig(
    { slots, service, reasoningTokens },
    { JUDGE_MAX_CONCURRENCY: slots, METER_USAGE: "true" },
    async ({ service: svc, key }) => {
      const tally = await tallyReader(inspectorOf(svc));
      const bodies = questions.map((q, i) => evaluationBody(q, { seed: i + 1, pairing, scoreFrom: "logprobs" }));
      const before = await tally.read();
      const bytes0 = sqliteBytes(svc.persist);
      const cpu0 = svc.workerdCpuMs();
      const requests0 = sent.requests;
      const views = await gradeAll(svc, key, bodies, { pollMs: 1000 });
      const cpuMs = svc.workerdCpuMs() - cpu0;
      const requests = sent.requests - requests0;
      // the objects let go of their databases a second after they end (TOURNAMENT_RETIRE_MS): the WAL is folded in
      await new Promise((r) => setTimeout(r, 3000));
      const used = minus(await tally.read(), before);
      tally.close();
      const bytes1 = sqliteBytes(svc.persist);

      const answers = views.reduce((s, v) => s + v.answers.length, 0);
      const calls = views.reduce((s, v) => s + v.usage.judgeCalls, 0);
      const failed = views.filter((v) => v.status !== "completed").length;
      const per = 1000 / answers;
      const tokens = {
        prompt: views.reduce((s, v) => s + v.usage.promptTokens, 0),
        shared: views.reduce((s, v) => s + (v.usage.sharedPrefixTokens ?? 0), 0),
        completion: views.reduce((s, v) => s + v.usage.completionTokens, 0),
      };
      const objectRequests = Object.values(used.objects).reduce((s, n) => s + n, 0);
      const wallS = span(views) / 1000;
      // A Tournament object is active from its start to its end: with JUDGE_MAX_RUNNING (4 x S) above the
      // questions, each starts as it is posted, so createdAt to completedAt is its active time. The
      // JudgeGate is active for the whole run (its permit waiters hold it); RateLimiter and the others
      // answer in a moment and are left out.
      const tournamentS = views.reduce((s, v) => s + (Date.parse(v.completedAt) - Date.parse(v.createdAt)) / 1000, 0);
      const gbS = (tournamentS + wallS) * prices.durableObjects.gbPerObject;
      const alarmsEstimate = 0; // a Tournament's watchdog alarm fires only if its object dies; the gate's every 30 s while work is queued
      const counts = {
        workerRequests: requests * per,
        objectRequests: (objectRequests + alarmsEstimate) * per,
        gbS: gbS * per,
        d1Read: used.d1.rowsRead * per,
        d1Written: used.d1.rowsWritten * per,
        objectRowsWritten: used.objectSql.rowsWritten * per,
        cpuMs: cpuMs * per,
        d1Bytes: (bytes1.d1 - bytes0.d1) / answers,
        objectBytes: (bytes1.tournament - bytes0.tournament) / answers,
      };
      const P = prices;
      const lines = [
        ["Worker requests", counts.workerRequests, (counts.workerRequests / 1e6) * P.workers.requestsPerMillion],
        ["Worker + object CPU ms", counts.cpuMs, (counts.cpuMs / 1e6) * P.workers.cpuMsPerMillion],
        ["Durable Object requests", counts.objectRequests, (counts.objectRequests / 1e6) * P.durableObjects.requestsPerMillion],
        ["Durable Object GB-s", counts.gbS, (counts.gbS / 1e6) * P.durableObjects.gbSecondsPerMillion],
        [
          "Durable Object SQL rows written",
          counts.objectRowsWritten,
          (counts.objectRowsWritten / 1e6) * P.durableObjects.sqlRowsWrittenPerMillion,
        ],
        ["D1 rows read (metered)", counts.d1Read, (counts.d1Read / 1e6) * P.d1.rowsReadPerMillion],
        ["D1 rows written", counts.d1Written, (counts.d1Written / 1e6) * P.d1.rowsWrittenPerMillion],
      ];
      const storageMonth =
        ((counts.d1Bytes * 1000) / 1e9) * P.d1.storedGbMonth + ((counts.objectBytes * 1000) / 1e9) * P.durableObjects.storedGbMonth;
      const total = lines.reduce((s, l) => s + l[2], 0);
      report(
        "bill: the run",
        `${views.length} Mohler questions, ${answers} answers, ${calls} judge calls (${(calls / answers).toFixed(2)} per answer), debiased knockout, ${reasoningTokens} reasoning tokens streamed with logprobs, S=${slots}, T=${service} ms; ${wallS.toFixed(1)} s; failed ${failed}`,
        null,
        "",
      );
      console.log(`  per 1,000 graded answers (prices of ${PRICES_READ}, bench/prices.mjs, each at its overage rate):`);
      for (const [what, n, cost] of lines) console.log(`    ${what}: ${n.toFixed(n < 100 ? 1 : 0)} = ${usd(cost)}`);
      console.log(
        `    storage: D1 ${(counts.d1Bytes / 1024).toFixed(1)} KB per answer, Durable Objects ${(counts.objectBytes / 1024).toFixed(1)} KB per answer: ${usd(storageMonth)} a month per 1,000 answers kept`,
      );
      report(
        "bill per 1,000 answers",
        `${usd(total)} (excluding the judge, the $5 plan and storage kept: ${usd(storageMonth)} a month); D1 rows written per answer ${(used.d1.rowsWritten / answers).toFixed(2)}, Durable Object SQL rows written per answer ${(used.objectSql.rowsWritten / answers).toFixed(2)}`,
        null,
        "report",
      );
      report(
        "the judge's tokens per 1,000 answers",
        `prompt ${Math.round(tokens.prompt * per)} (of which a shared prefix ${Math.round(tokens.shared * per)}), completion ${Math.round(tokens.completion * per)}`,
        null,
        "beside the bill",
      );
      const top = Object.entries(used.objects)
        .sort((a, b) => b[1] - a[1])
        .map(([k, n]) => `${k} ${(n / answers).toFixed(2)}`)
        .join(", ");
      console.log(`  Durable Object requests per answer, by method: ${top}`);
      console.log(
        `  D1: ${used.d1.statements} statements with meta, ${used.d1.unmetered} without (raw()/first(): their rows read are not in the count); Worker requests are the bench's own (POSTs, list polls every second, one read of each result)`,
      );
      console.log(
        `  estimated, not observed: Durable Object GB-s (Tournament objects' createdAt to completedAt, ${tournamentS.toFixed(0)} s, plus the JudgeGate for the whole run, at 128 MB); alarms (none fire in a run without crashes but the gate's watchdog, ~1 per 30 s); storage from the local SQLite files' sizes`,
      );
    },
  );
}
