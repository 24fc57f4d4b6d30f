// `npm start`: the service on this machine, with local D1 and Durable Objects (wrangler dev / miniflare).
// Applies the D1 migrations first. With no judge configured (JUDGE_BASE_URL or JUDGE_ENDPOINTS in the
// environment or in .dev.vars), it also starts the bundled demo judge and says so loudly.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import { startDemoJudge } from "../demo-judge/server.ts";
import { hasToolKeys, newToolKey, withToolKeys } from "./lti-dev-key.mjs";

const devVars = Object.fromEntries(
  (fs.existsSync(".dev.vars") ? fs.readFileSync(".dev.vars", "utf8") : "")
    .split("\n")
    .map((line) => line.match(/^\s*([A-Z0-9_]+)\s*=\s*"?(.*?)"?\s*$/))
    .filter(Boolean)
    .map((m) => [m[1], m[2]]),
);
const setting = (name) => process.env[name] || devVars[name] || "";
// `npm start -- --port 8788` or PORT=8788 (wrangler's own advice, when the port is taken, is --port)
const portFlag = process.argv.indexOf("--port");
const portText = portFlag >= 0 ? process.argv[portFlag + 1] : process.env.PORT || "8787";
const port = Number(portText);
if (!Number.isInteger(port) || port < 1 || port > 65535) {
  console.error(`npm start: the port must be a whole number from 1 to 65535 (got ${JSON.stringify(portText ?? "")})`);
  process.exit(2);
}

// wrangler prints its whole table of migrations once per migration applied (2,000 lines on a fresh
// checkout), which scrolls the banner below out of sight: its output is shown only when it fails
const migrate = spawnSync("npx", ["wrangler", "d1", "migrations", "apply", "DB", "--local"], {
  encoding: "utf8",
  env: { ...process.env, CI: "true" },
});
if (migrate.status !== 0) {
  process.stdout.write(migrate.stdout ?? "");
  process.stderr.write(migrate.stderr ?? "");
  process.exit(migrate.status ?? 1);
}
const applied = new Set((migrate.stdout.match(/\d{4}_[\w-]+\.sql(?=\s*│\s*✅)/g) ?? []).map(String));
console.log(
  applied.size ? `Local D1: applied ${applied.size} migration(s), up to ${[...applied].sort().at(-1)}.` : "Local D1: up to date.",
);

// wrangler dev reads .dev.vars and --var, not the shell's environment: forward the settings found there
const SETTINGS = [
  "JUDGE_BASE_URL",
  "JUDGE_ENDPOINTS",
  "JUDGE_MODEL",
  "JUDGE_API_KEY",
  "ADMIN_TOKEN",
  "JUDGE_TIMEOUT_MS",
  "JUDGE_DEADLINE_MS",
  "JUDGE_RETRY_BASE_MS",
  "JUDGE_RETRY_CAP_MS",
  "JUDGE_MAX_TOKENS",
  "JUDGE_PARSE_ATTEMPTS",
  "JUDGE_STRUCTURED_OUTPUTS",
  "TOURNAMENT_WATCHDOG_MS",
  "JUDGE_MAX_CONCURRENCY",
  "JUDGE_MAX_IN_FLIGHT",
  "JUDGE_MAX_RUNNING",
  "TOURNAMENT_RETIRE_MS",
  "COLLECTION_SUBMIT_LIMIT",
  "COLLECTION_SUBMIT_WINDOW_S",
  "COLLECTION_GRADING_DEADLINE_MS",
  "RATE_LIMIT_PER_MINUTE",
  "ALLOW_INSECURE_WEBHOOKS",
  "WEBHOOK_RETRY_BASE_MS",
  "WEBHOOK_RETRY_CAP_MS",
  "WEBHOOK_RETRY_WINDOW_MS",
  "WEBHOOK_TIMEOUT_MS",
  "LTI_JWKS_COOLDOWN_MS",
];
const vars = SETTINGS.filter((name) => process.env[name]).map((name) => `${name}:${process.env[name]}`);
let judgeUrl = setting("JUDGE_BASE_URL") || (setting("JUDGE_ENDPOINTS") ? "the pool in JUDGE_ENDPOINTS" : "");
let demo = null;
if (!judgeUrl) {
  demo = await startDemoJudge(Number(process.env.DEMO_JUDGE_PORT || 0));
  judgeUrl = `http://127.0.0.1:${demo.address().port}/v1`;
  vars.push(`JUDGE_BASE_URL:${judgeUrl}`);
}
let adminToken = setting("ADMIN_TOKEN");
if (!adminToken) {
  adminToken = "dev-admin-token";
  vars.push(`ADMIN_TOKEN:${adminToken}`);
}
// local workerd keeps a finished tournament's object in memory for minutes: let it go a second after
if (!setting("TOURNAMENT_RETIRE_MS")) vars.push("TOURNAMENT_RETIRE_MS:1000");
// on this machine, webhooks to a receiver on localhost are the usual thing to try
if (!setting("ALLOW_INSECURE_WEBHOOKS")) vars.push("ALLOW_INSECURE_WEBHOOKS:true");

// the LTI tool's signing key: a secret, so it goes to .dev.vars (which wrangler dev reads), never to
// the command line; made once, so a local LMS that registered the tool keeps trusting it
let madeToolKey = false;
const devVarsText = fs.existsSync(".dev.vars") ? fs.readFileSync(".dev.vars", "utf8") : "";
if (!process.env.LTI_PRIVATE_KEYS && !hasToolKeys(devVarsText)) {
  fs.writeFileSync(".dev.vars", withToolKeys(devVarsText, [await newToolKey()]), { mode: 0o600 });
  madeToolKey = true;
}

const line = "=".repeat(78);
console.log(`\n${line}`);
if (demo) {
  console.log("  NO JUDGE CONFIGURED: grading with the bundled DEMO JUDGE, not an LLM.");
  console.log(`  It scores answers by word overlap with the reference answer (${judgeUrl}).`);
  console.log("  For real grading set JUDGE_BASE_URL (and JUDGE_MODEL) to your vLLM server,");
  console.log("  e.g. JUDGE_BASE_URL=http://127.0.0.1:8000/v1 npm start, or put it in .dev.vars.");
} else {
  console.log(`  Judge: ${judgeUrl}`);
}
if (!setting("ALLOW_INSECURE_WEBHOOKS"))
  console.log("  Webhooks may also go to http://localhost and http://127.0.0.1 (ALLOW_INSECURE_WEBHOOKS=true).");
if (!setting("ADMIN_TOKEN")) console.log(`  ADMIN_TOKEN is "${adminToken}" (local development only; set your own in .dev.vars).`);
console.log(`  API: http://localhost:${port}/v1   (README.md has a curl session to try)`);
// a new user's first question is where a key comes from: the command that makes one
console.log(
  `  Key: curl -X POST localhost:${port}/v1/keys -H "Authorization: Bearer ${setting("ADMIN_TOKEN") ? "$ADMIN_TOKEN" : adminToken}" -H "Content-Type: application/json" -d '{"tenant": "my-course"}'`,
);
console.log(`  Web: http://localhost:${port}/     (grade in the browser; docs/web.md)`);
// what an LMS admin types in to register the tool (docs/lti.md); on a public host, PUBLIC_URL's
const site = setting("PUBLIC_URL") || `http://localhost:${port}`;
console.log("  LTI 1.3 tool (docs/lti.md):");
console.log(`    Login initiation URL: ${site}/lti/login`);
console.log(`    Redirect URI:         ${site}/lti/launch`);
console.log(`    Public keyset (JWKS): ${site}/lti/jwks`);
console.log(`    Target link URI:      ${site}/lti/launch`);
console.log(`    Deep linking URL:     ${site}/lti/launch`);
if (madeToolKey) console.log("    (a new LTI signing key was written to .dev.vars as LTI_PRIVATE_KEYS)");
console.log(`${line}\n`);

const args = ["wrangler", "dev", "--port", String(port), ...vars.flatMap((v) => ["--var", v])];
// wrangler's local trace collector records every span (each judge call, RPC and storage write) and
// costs memory and CPU per call; grading runs without it unless asked for (X_LOCAL_OBSERVABILITY=true).
// The service never reads request.cf, so miniflare need not fetch it from Cloudflare at start: offline
// (a laptop on a train, a locked-down lab) that fetch fails and prints a stack trace.
const localEnv = { X_LOCAL_OBSERVABILITY: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" };
// wrangler in a process group of its own, stopped whole: npx does not pass a signal on to wrangler, so
// a SIGTERM to npm start (a service manager's, a test's) used to leave wrangler and workerd running
const dev = spawn("npx", args, { stdio: "inherit", env: { ...localEnv, ...process.env }, detached: true });
const stop = () => {
  try {
    process.kill(-dev.pid, "SIGINT");
  } catch {
    // already gone
  }
  demo?.close();
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
dev.on("exit", (code) => {
  demo?.close();
  process.exit(code ?? 0);
});
