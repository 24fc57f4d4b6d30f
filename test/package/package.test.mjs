// The package as a user gets it (npm run test:package): packed by `npm pack`, installed from the
// tarball into an empty folder with npm alone, and used there: the CLI runs, a TypeScript file that
// imports `knockout-judge/client` type-checks under "moduleResolution": "bundler" and "node16", and
// the same file, run by Node, grades against the service (wrangler's harness, the bundled demo judge).
import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import assert from "node:assert/strict";

const root = path.resolve(import.meta.dirname, "../..");
const tsc = path.join(root, "node_modules/typescript/bin/tsc");
const work = mkdtempSync(path.join(tmpdir(), "knockout-judge-package-"));
const app = path.join(work, "app");

// run by `npm run`, this process has npm's npm_* settings, which would point npm and npx in the
// temporary folder back at this project: the commands there get the environment without them
const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));

function run(command, args, cwd, env = {}) {
  return execFileSync(command, args, {
    cwd,
    encoding: "utf8",
    env: { ...clean, ...env },
    stdio: ["ignore", "pipe", "pipe"],
    timeout: 60_000,
  });
}

const GRADE = `// Node's own globals, without @types/node: a user of the client need not install it
declare const process: { env: Record<string, string | undefined>; exitCode?: number };

import { ApiProblem, knockoutJudge, type Evaluation, type EvaluationRequest } from "knockout-judge/client";
import { limits, type LiveView } from "knockout-judge/contract";

const request: EvaluationRequest = {
  question: "What is a stack?",
  reference: "A last-in, first-out (LIFO) structure: push adds on top, pop removes the top.",
  maxScore: 5,
  answers: [
    { id: "ana", text: "A LIFO structure: push adds on top, pop removes the top element." },
    { id: "ben", text: "A list where the first element in is the first out." },
    { id: "dev", text: "Memory used by the CPU." },
  ],
};
// @ts-expect-error: the client's types are the contract's, not any (there is no method "best")
const wrong: EvaluationRequest = { ...request, method: "best" };
void wrong;
const live: Pick<LiveView, "status"> = { status: "running" };
void live;

export async function grade(baseUrl: string, key: string): Promise<Evaluation> {
  if (request.answers.length > limits.maxAnswers) throw new Error("too many answers");
  const client = knockoutJudge({ baseUrl, key });
  const { id } = await client.createEvaluation(request);
  const deadline = Date.now() + 30_000;
  for (;;) {
    const evaluation = await client.evaluation(id);
    if (evaluation.status !== "queued" && evaluation.status !== "running") return evaluation;
    if (Date.now() > deadline) throw new Error(\`still \${evaluation.status} after 30 s\`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

if (process.env.SERVICE_URL) {
  try {
    const evaluation = await grade(process.env.SERVICE_URL, process.env.SERVICE_KEY ?? "");
    console.log(JSON.stringify({ status: evaluation.status, ranking: evaluation.answers.map((a) => [a.id, a.rank]) }));
  } catch (err) {
    console.error(err instanceof ApiProblem ? err.problem : err);
    process.exitCode = 1;
  }
}
`;

const compilerOptions = { target: "ES2023", lib: ["ES2023", "DOM"], types: [], strict: true, noEmit: true, skipLibCheck: false };

before(() => {
  const packed = run("npm", ["pack", "--silent", "--pack-destination", work], root).trim().split("\n").at(-1);
  const tarball = path.join(work, packed);
  console.log(`tarball: ${packed}, ${statSync(tarball).size} bytes`);
  rmSync(app, { recursive: true, force: true });
  run("mkdir", ["-p", app], work);
  writeFileSync(path.join(app, "package.json"), JSON.stringify({ name: "app", private: true, type: "module" }));
  run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--no-package-lock", tarball], app);
  writeFileSync(path.join(app, "grade.ts"), GRADE);
  writeFileSync(
    path.join(app, "tsconfig.bundler.json"),
    JSON.stringify({
      compilerOptions: { ...compilerOptions, module: "ESNext", moduleResolution: "bundler", allowImportingTsExtensions: true },
      files: ["grade.ts"],
    }),
  );
  writeFileSync(
    path.join(app, "tsconfig.node16.json"),
    JSON.stringify({ compilerOptions: { ...compilerOptions, module: "node16", moduleResolution: "node16" }, files: ["grade.ts"] }),
  );
});

after(() => rmSync(work, { recursive: true, force: true }));

test("the tarball holds the built package only", () => {
  const installed = path.join(app, "node_modules/knockout-judge");
  const top = readdirSync(installed);
  assert.ok(top.includes("dist") && top.includes("package.json"));
  assert.deepEqual(
    top.filter((f) => ["src", "test", "public", "durable-objects", "node_modules"].includes(f)),
    [],
  );
  // what it brings along: zod, and nothing of the service (hono, drizzle)
  const modules = readdirSync(path.join(app, "node_modules")).filter((d) => !d.startsWith("."));
  assert.deepEqual(modules.sort(), ["knockout-judge", "zod"]);
});

test("npx knockout-judge --help runs the installed CLI", async () => {
  // the usage goes to stderr, as for any call the CLI does not grade
  const { stderr } = await promisify(execFile)("npx", ["--no-install", "knockout-judge", "--help"], { cwd: app, env: clean });
  assert.match(stderr, /^Usage: knockout-judge eval/m);
});

for (const resolution of ["bundler", "node16"]) {
  test(`a TypeScript file importing knockout-judge/client type-checks under "moduleResolution": "${resolution}"`, () => {
    run(process.execPath, [tsc, "-p", `tsconfig.${resolution}.json`], app);
  });
}

test("the installed client grades against a running service", async () => {
  // the service never reads request.cf; offline, fetching it prints a stack trace
  process.env.CLOUDFLARE_CF_FETCH_ENABLED = "false";
  const { createTestHarness } = await import("wrangler");
  const { startDemoJudge } = await import("../../demo-judge/server.ts");
  const judge = await startDemoJudge(0);
  const service = createTestHarness({
    workers: [
      {
        configPath: path.join(root, "wrangler.toml"),
        vars: { JUDGE_BASE_URL: `http://127.0.0.1:${judge.address().port}/v1`, TOURNAMENT_RETIRE_MS: "1000" },
        secrets: { ADMIN_TOKEN: "package-test-admin" },
      },
    ],
  });
  try {
    const { url } = await service.listen();
    await service.getWorker().applyD1Migrations("DB");
    const issued = await fetch(new URL("/v1/keys", url), {
      method: "POST",
      headers: { authorization: "Bearer package-test-admin", "content-type": "application/json" },
      body: JSON.stringify({ tenant: "package-test" }),
    });
    assert.equal(issued.status, 201);
    const { key } = await issued.json();
    // not execFileSync: the demo judge answers from this process's event loop
    const { stdout: out } = await promisify(execFile)(process.execPath, ["grade.ts"], {
      cwd: app,
      env: { ...clean, SERVICE_URL: url.origin, SERVICE_KEY: key },
      timeout: 60_000,
    });
    const result = JSON.parse(out.trim().split("\n").at(-1));
    assert.equal(result.status, "completed");
    assert.deepEqual(result.ranking.map(([, rank]) => rank).sort(), [1, 2, 3]);
    assert.equal(result.ranking.find(([, rank]) => rank === 1)[0], "ana");
  } finally {
    await service.close();
    await new Promise((resolve) => judge.close(resolve));
  }
});
