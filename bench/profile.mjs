// `npm run bench -- --only profile`: the overhead workload (an instant judge, 10 Mohler questions
// debiased, streamed with logprobs) graded once under workerd's V8 CPU profiler, at 0 and at K reasoning
// tokens. The profiler is driven over the DevTools protocol on the inspector wrangler opens for the
// service (`--inspector-port`, the same isolate that runs the Worker and its Durable Objects):
// Profiler.enable, setSamplingInterval, start, the workload, stop. Each profile is written to
// bench-output/profile-<K>.cpuprofile (open it in Chrome's DevTools or speedscope), and the top 20
// functions by self time are printed, mapped through wrangler's source map to our files and lines.
// Self time counts V8's samples only: what workerd does outside JavaScript (its HTTP, SQLite, RPC
// plumbing) shows as "(program)", and the garbage collector as "(garbage collector)".
import fs from "node:fs";
import { SourceMap } from "node:module";
import path from "node:path";
import { root } from "./lib.mjs";

const OUT = path.join(root, "bench-output");
/** The profiler's sampling interval (µs): fine enough for calls of a millisecond. */
const SAMPLING_US = 200;

/** The DevTools protocol over one WebSocket: `send(method, params)` resolves with the result. */
export async function devtools(inspectorPort) {
  const targets = await (await fetch(`http://127.0.0.1:${inspectorPort}/json`)).json();
  const target = targets.find((t) => t.webSocketDebuggerUrl) ?? targets[0];
  if (!target?.webSocketDebuggerUrl) throw new Error(`no inspector target on port ${inspectorPort}: ${JSON.stringify(targets)}`);
  // wrangler's inspector proxy takes DevTools from a local origin only
  const ws = new WebSocket(target.webSocketDebuggerUrl, { headers: { origin: "http://localhost" } });
  await new Promise((open, fail) => {
    ws.addEventListener("open", open, { once: true });
    ws.addEventListener("error", () => fail(new Error("inspector WebSocket failed")), { once: true });
  });
  let next = 1;
  const waiting = new Map();
  const contexts = [];
  ws.addEventListener("message", (e) => {
    const msg = JSON.parse(String(e.data));
    if (msg.method === "Runtime.executionContextCreated") contexts.push(msg.params.context);
    const w = msg.id !== undefined ? waiting.get(msg.id) : undefined;
    if (!w) return;
    waiting.delete(msg.id);
    if (msg.error) w.fail(new Error(`${w.method}: ${msg.error.message}`));
    else w.done(msg.result);
  });
  return {
    send: (method, params = {}) =>
      new Promise((done, fail) => {
        const id = next++;
        waiting.set(id, { done, fail, method });
        ws.send(JSON.stringify({ id, method, params }));
      }),
    /** The execution contexts Runtime.enable has announced (the isolate's own is the first). */
    contexts,
    close: () => ws.close(),
  };
}

/** Runs `work` under the CPU profiler of the service's isolate; returns work's result and the profile. */
export async function profiled(inspectorPort, work) {
  const dt = await devtools(inspectorPort);
  try {
    await dt.send("Profiler.enable");
    await dt.send("Profiler.setSamplingInterval", { interval: SAMPLING_US });
    await dt.send("Profiler.start");
    const result = await work();
    const { profile } = await dt.send("Profiler.stop");
    await dt.send("Profiler.disable");
    return { result, profile };
  } finally {
    dt.close();
  }
}

/** wrangler's bundle of the service and its source map (the newest dev build), to name our files. */
function bundleMap() {
  const tmp = path.join(root, ".wrangler/tmp");
  if (!fs.existsSync(tmp)) return null;
  const builds = fs
    .readdirSync(tmp)
    .filter((d) => d.startsWith("dev-"))
    .map((d) => path.join(tmp, d))
    .filter((d) => fs.existsSync(path.join(d, "index.js.map")))
    .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs);
  if (!builds.length) return null;
  return new SourceMap(JSON.parse(fs.readFileSync(path.join(builds[0], "index.js.map"), "utf8")));
}

/** Where a profile's call frame is in our sources: file:line through the source map, else the bundle's. */
function placeOf(frame, map) {
  if (!frame.url) return "";
  const bundled = /index\.js$/.test(frame.url);
  if (bundled && map) {
    const entry = map.findEntry(frame.lineNumber, frame.columnNumber);
    if (entry?.originalSource) {
      const file = entry.originalSource.replace(/^.*?(node_modules\/|src\/|durable-objects\/)/, "$1");
      return `${file}:${entry.originalLine + 1}`;
    }
  }
  return `${path.basename(frame.url)}:${frame.lineNumber + 1}`;
}

/**
 * The functions with the most self time: samples at each node of the profile's call tree, summed by
 * function and place. `total` is every sample's time, idle included; `busy` leaves "(idle)" out.
 */
export function selfTimes(profile, map = null) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i];
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i + 1] ?? 0));
  }
  const rows = new Map();
  let total = 0;
  let idle = 0;
  for (const [id, us] of selfUs) {
    const frame = byId.get(id).callFrame;
    const name = frame.functionName || "(anonymous)";
    total += us;
    if (name === "(idle)") idle += us;
    const place = placeOf(frame, map);
    const key = `${name}\u0000${place}`;
    const row = rows.get(key) ?? { name, place, us: 0 };
    row.us += us;
    rows.set(key, row);
  }
  return { rows: [...rows.values()].sort((a, b) => b.us - a.us), totalUs: total, busyUs: total - idle };
}

/** The top `n` by self time as printed lines: function, file:line, ms, share of the busy time. */
export function topLines(times, n = 20) {
  const lines = [];
  const busy = times.busyUs || 1;
  for (const r of times.rows.filter((x) => x.name !== "(idle)").slice(0, n)) {
    const ms = (r.us / 1000).toFixed(1).padStart(8);
    const share = ((100 * r.us) / busy).toFixed(1).padStart(5);
    lines.push(`  ${ms} ms ${share}%  ${r.name}  ${r.place}`);
  }
  return lines;
}

/**
 * The profile target: for each level of reasoning tokens, a fresh service, the overhead workload once
 * under the profiler, the profile written, its top 20 printed with the workload's calls and CPU.
 */
export async function profile({ levels, withRig, overheadWork, inspectorOf, report, fullAlternatives }) {
  fs.mkdirSync(OUT, { recursive: true });
  for (const k of levels) {
    await withRig({ slots: 1000, service: 0, jitter: 0, reasoningTokens: k, fullAlternatives }, {}, async (rig) => {
      // one unprofiled round first: the bundle compiled and the objects' code warm, as in the overhead bench
      await overheadWork(rig, 0);
      const { result, profile: cpu } = await profiled(inspectorOf(rig.service), () => overheadWork(rig, 1));
      const file = path.join(OUT, `profile-${k}.cpuprofile`);
      fs.writeFileSync(file, JSON.stringify(cpu));
      const times = selfTimes(cpu, bundleMap());
      const sampledMs = times.busyUs / 1000;
      report(
        `profile, ${k} reasoning tokens`,
        `${result.calls} calls; workerd CPU ${result.cpuMs} ms (${(result.cpuMs / result.calls).toFixed(2)} ms per call); V8 busy in the isolate ${sampledMs.toFixed(0)} ms (${(sampledMs / result.calls).toFixed(2)} ms per call); ${path.relative(root, file)}`,
        null,
        "",
      );
      console.log(`  top 20 by self time (of ${sampledMs.toFixed(0)} ms sampled busy):`);
      for (const line of topLines(times)) console.log(line);
    });
  }
}
