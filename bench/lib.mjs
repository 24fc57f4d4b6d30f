// Processes and HTTP for the benchmark: judge-sim, the service under `wrangler dev`, and the API calls.
// Plain Node (run through `npm run bench`, so Node 24 from the `node` devDependency).
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export const root = path.resolve(import.meta.dirname, "..");

/** judge-sim and the Mohler data live beside the project (../shared), or where BENCH_SHARED says. */
export function findShared() {
  const candidates = [process.env.BENCH_SHARED, path.join(root, "../shared"), path.join(root, "../../shared"), "/work/shared"].filter(
    Boolean,
  );
  for (const dir of candidates) {
    const sim = path.join(dir, "tools/judge-sim.mjs");
    const data = path.join(dir, "datasets/mohler_asag/mohler_unt_v2.jsonl");
    if (fs.existsSync(sim) && fs.existsSync(data)) return { sim, data };
  }
  return null;
}

export function readQuestions(file) {
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l))
    .filter((q) => !q.ignored_in_published_work);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const children = new Set();
process.on("exit", () => {
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
});

async function waitFor(what, probe, timeoutMs = 60_000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    try {
      const v = await probe();
      if (v) return v;
    } catch {}
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

/**
 * judge-sim on `port` with the given capacity; resolves once it answers /stats. `reasoningTokens`: the
 * words of reasoning it writes before its verdict (a streamed reply carries one chunk per token).
 */
export async function startJudgeSim(shared, port, { slots, service, jitter = 0.2, reasoningTokens = 0 }) {
  const child = spawn(
    process.execPath,
    [
      shared.sim,
      "--data",
      shared.data,
      "--port",
      String(port),
      "--slots",
      String(slots),
      "--service",
      String(service),
      "--jitter",
      String(jitter),
      "--reasoning-tokens",
      String(reasoningTokens),
    ],
    {
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
  children.add(child);
  const url = `http://127.0.0.1:${port}`;
  await waitFor("judge-sim", async () => (await fetch(`${url}/stats`)).ok);
  return {
    url,
    stats: async () => (await fetch(`${url}/stats`)).json(),
    reset: async () => fetch(`${url}/stats/reset`, { method: "POST" }),
    stop: () => stopChild(child),
  };
}

/**
 * The service under `wrangler dev` with fresh local storage and the given vars; with `config`, that
 * Worker's wrangler.toml instead (the floor bench's), which has no D1 to migrate.
 */
export async function startService(port, vars, { config } = {}) {
  const persist = fs.mkdtempSync(path.join(os.tmpdir(), "kj-bench-"));
  // as `npm start` runs it: without wrangler's local trace collector, which records every span
  // request.cf is not used: no fetch of it from Cloudflare (offline it fails with a stack trace)
  const env = {
    X_LOCAL_OBSERVABILITY: "false",
    CLOUDFLARE_CF_FETCH_ENABLED: "false",
    ...process.env,
    CI: "true",
    WRANGLER_SEND_METRICS: "false",
  };
  if (!config) {
    const migrate = spawnSync("npx", ["wrangler", "d1", "migrations", "apply", "DB", "--local", "--persist-to", persist], {
      cwd: root,
      env,
      encoding: "utf8",
    });
    if (migrate.status !== 0) throw new Error(`migrations failed: ${migrate.stderr}`);
  }
  const args = [
    "wrangler",
    "dev",
    ...(config ? ["-c", config] : []),
    "--ip",
    "127.0.0.1",
    "--port",
    String(port),
    "--inspector-port",
    String(port + 50),
    "--persist-to",
    persist,
    "--log-level",
    "error",
  ];
  // as npm start: finished tournaments' objects let go a second after they end (local workerd keeps them)
  for (const [k, v] of Object.entries({ ADMIN_TOKEN: "bench-admin", TOURNAMENT_RETIRE_MS: "1000", ...vars }))
    args.push("--var", `${k}:${v}`);
  const child = spawn("npx", args, { cwd: root, env, stdio: ["ignore", "ignore", "inherit"], detached: true });
  children.add(child);
  const url = `http://127.0.0.1:${port}`;
  await waitFor("wrangler dev", async () => (await fetch(`${url}/health`)).ok, 90_000);
  return {
    url,
    /** The local storage: D1's and each Durable Object's SQLite files are under it. */
    persist,
    workerdRss: () => workerdRss(child.pid),
    workerdCpuMs: () => workerdCpu(child.pid),
    openTournaments: () => openTournaments(child.pid),
    stop: async () => {
      await stopChild(child, true);
      fs.rmSync(persist, { recursive: true, force: true });
    },
  };
}

async function stopChild(child, group = false) {
  if (child.exitCode !== null) return;
  const done = new Promise((r) => child.once("exit", r));
  try {
    if (group) process.kill(-child.pid, "SIGTERM");
    else child.kill("SIGTERM");
  } catch {}
  await Promise.race([done, sleep(5000)]);
  if (child.exitCode === null) {
    try {
      if (group) process.kill(-child.pid, "SIGKILL");
      else child.kill("SIGKILL");
    } catch {}
  }
  children.delete(child);
}

/** The workerd processes under our wrangler (only our own process tree). */
function workerdPids(rootPid) {
  const ps = spawnSync("ps", ["-e", "-o", "pid=,ppid=,comm="], { encoding: "utf8" }).stdout;
  const rows = ps
    .trim()
    .split("\n")
    .map((l) => l.trim().split(/\s+/))
    .map(([pid, ppid, comm]) => ({ pid: +pid, ppid: +ppid, comm }));
  const mine = new Set([rootPid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const r of rows) {
      if (mine.has(r.ppid) && !mine.has(r.pid)) {
        mine.add(r.pid);
        grew = true;
      }
    }
  }
  return rows.filter((r) => mine.has(r.pid) && r.comm.includes("workerd")).map((r) => r.pid);
}

/** CPU time (user + system, ms) the service's workerd has used so far: its work, whatever else runs. */
function workerdCpu(rootPid) {
  let ticks = 0;
  for (const pid of workerdPids(rootPid)) {
    try {
      const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
      ticks += Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15 of stat)
    } catch {}
  }
  return ticks * 10; // USER_HZ is 100 on Linux
}

/**
 * Tournament objects in memory: the workerd processes' open Tournament SQLite databases (each running or
 * idle-but-resident object holds its database open; one let go closes it).
 */
function openTournaments(rootPid) {
  let n = 0;
  for (const pid of workerdPids(rootPid)) {
    try {
      for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
        try {
          if (/Tournament\/[0-9a-f]+\.sqlite$/.test(fs.readlinkSync(`/proc/${pid}/fd/${fd}`))) n++;
        } catch {}
      }
    } catch {}
  }
  return n;
}

/**
 * Resident memory (MB) of the workerd processes under our wrangler, by role: `service` is the runtime
 * that runs the Worker, its Durable Objects and local D1 (the one wrangler gives an inspector); `proxy`
 * is wrangler's dev proxy in front of it, which has no counterpart when deployed.
 */
function workerdRss(rootPid) {
  const rss = { service: 0, proxy: 0 };
  for (const pid of workerdPids(rootPid)) {
    try {
      const kb = Number(fs.readFileSync(`/proc/${pid}/status`, "utf8").match(/VmRSS:\s+(\d+)/)?.[1] ?? 0);
      const role = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("--inspector-addr") ? "service" : "proxy";
      rss[role] += kb / 1024;
    } catch {}
  }
  return rss;
}

/** Requests the bench has sent to the service (each a Worker request when deployed): the bill counts them. */
export const sent = { requests: 0 };

export async function api(service, method, pathname, { key, body } = {}) {
  sent.requests++;
  const headers = { "content-type": "application/json" };
  if (key) headers.authorization = `Bearer ${key}`;
  const r = await fetch(`${service.url}${pathname}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: r.status, json };
}

export async function newKey(service, scopes) {
  const body = { tenant: `bench${Date.now()}`, ...(scopes ? { scopes } : {}) };
  const r = await api(service, "POST", "/v1/keys", { key: "bench-admin", body });
  if (r.status !== 201) throw new Error(`POST /v1/keys: ${r.status} ${JSON.stringify(r.json)}`);
  return r.json.key;
}

/**
 * The body for one Mohler question, optionally cut to `maxAnswers` answers. `scoreFrom: "logprobs"`
 * makes every grading call ask for and read the judge's token probabilities (a reply without them is
 * asked again), as a real judge's calls do.
 */
export function evaluationBody(q, { seed = 1, maxAnswers = Infinity, pairing, feedback, scoreFrom } = {}) {
  const answers = q.answers.slice(0, maxAnswers).map((a) => ({ id: a.id, text: a.text }));
  const body = { question: q.question, reference: q.reference, maxScore: q.max_score, answers, debias: true, seed };
  if (pairing) body.pairing = pairing;
  if (feedback) body.feedback = feedback;
  if (scoreFrom) body.judge = { scoreFrom };
  return body;
}

/** POSTs every body (a few at a time), then polls until each is finished. Returns the finished views. */
export async function gradeAll(service, key, bodies, { pollMs = 250, postConcurrency = 8 } = {}) {
  const ids = new Array(bodies.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: postConcurrency }, async () => {
      while (next < bodies.length) {
        const i = next++;
        const r = await api(service, "POST", "/v1/evaluations", { key, body: bodies[i] });
        if (r.status !== 202) throw new Error(`POST /v1/evaluations: ${r.status} ${JSON.stringify(r.json)}`);
        ids[i] = r.json.id;
      }
    }),
  );
  // Progress from the list (D1 only, 100 a page): polling must not load the service it measures. The full
  // results are read once everything has finished; times come from the service's own createdAt and
  // completedAt, so neither the poll rate nor the reads after change them.
  const waiting = new Set(ids);
  while (waiting.size > 0) {
    let cursor = "";
    do {
      const r = await api(service, "GET", `/v1/evaluations?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, { key });
      if (r.status !== 200) throw new Error(`GET /v1/evaluations: ${r.status}`);
      // completedAt comes from D1 with the final status
      for (const e of r.json.data) if ((e.status === "completed" || e.status === "failed") && e.completedAt) waiting.delete(e.id);
      cursor = r.json.nextCursor ?? "";
    } while (cursor && waiting.size > 0);
    if (waiting.size > 0) await sleep(pollMs);
  }
  const done = new Map();
  for (const id of ids) {
    const r = await api(service, "GET", `/v1/evaluations/${id}`, { key });
    if (r.status !== 200) throw new Error(`GET ${id}: ${r.status}`);
    done.set(id, r.json);
  }
  return ids.map((id) => done.get(id));
}

/** Wall time from the first POST to the last completion, by the service's own clocks. */
export function span(views) {
  const start = Math.min(...views.map((v) => Date.parse(v.createdAt)));
  const end = Math.max(...views.map((v) => Date.parse(v.completedAt)));
  return end - start;
}

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}
