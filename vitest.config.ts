import fs from "node:fs";
import path from "node:path";
import { defineConfig, type Plugin } from "vitest/config";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";

/**
 * standardwebhooks ships a source map that names its TypeScript sources but not the sources
 * themselves, and vite says so on every run of a workers project. Its code is read without the map.
 */
const withoutBrokenSourceMap: Plugin = {
  name: "standardwebhooks-without-source-map",
  enforce: "pre",
  load(id) {
    if (!/node_modules[\\/]standardwebhooks[\\/]dist[\\/].*\.js$/.test(id)) return null;
    return fs.readFileSync(id, "utf8").replace(/^\/\/# sourceMappingURL=.*$/m, "");
  },
};

// Five projects: the pure core runs in plain Node (fast, no runtime needed); the service shell runs
// inside workerd with real D1, Durable Objects and alarms, against a real judge server on 127.0.0.1;
// the judge pool (test/pool) and a panel of judges on a pool of several models (test/panel) run there
// too, each against judge servers of its own; the web front runs in headless Chromium against the
// whole service (test/browser).
export default defineConfig({
  test: {
    // vitest runs one file at a time on a 2-core machine (its default is cores - 1); most of the service's
    // test time is spent waiting on the test judge's delays and the objects' alarms, not on a core, so four
    // at once: the workers project in 170 s rather than 223 s with two (test/workers/fuzz.test.ts, the one
    // file bound by a core, then takes longer than a minute)
    maxWorkers: 4,
    projects: [
      {
        test: {
          name: "unit",
          include: ["test/unit/**/*.test.ts"],
          environment: "node",
          // pure functions: a Node process per file cost more than most files take (44 s -> 22 s alone)
          isolate: false,
          // the exhaustive and statistical tests of the core take 2-3 s alone, past 5 s beside a loaded workerd
          testTimeout: 20_000,
        },
      },
      {
        plugins: [
          withoutBrokenSourceMap,
          cloudflareTest(async ({ inject }) => ({
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: {
              bindings: {
                TEST_MIGRATIONS: await readD1Migrations(path.join(import.meta.dirname, "migrations")),
                JUDGE_BASE_URL: `http://127.0.0.1:${inject("judgePort" as never)}/v1`,
                JUDGE_MODEL: "test-judge",
                ADMIN_TOKEN: "test-admin-token",
                // the address links are built on, whatever Host a request names (test/workers/openapi.test.ts forges one)
                PUBLIC_URL: "http://service.test",
                JUDGE_TIMEOUT_MS: "3000",
                // a stream silent this long is stalled: shorter than the call's whole time, to tell the two apart
                JUDGE_STALL_TIMEOUT_MS: "500",
                // requests carry vLLM's priority field, so the tests can see interactive 0 and batch 1
                JUDGE_PRIORITY: "true",
                JUDGE_RETRY_BASE_MS: "20",
                COLLECTION_SUBMIT_LIMIT: "5",
                // a closed collection whose grading cannot start gives up within seconds, not an hour
                COLLECTION_GRADING_DEADLINE_MS: "2000",
                // small enough that a judge "down" for good fails a test evaluation in seconds
                JUDGE_RETRY_CAP_MS: "200",
                JUDGE_DEADLINE_MS: "6000",
                ALLOW_INSECURE_WEBHOOKS: "true",
                WEBHOOK_RETRY_BASE_MS: "20",
                WEBHOOK_RETRY_CAP_MS: "100",
                WEBHOOK_RETRY_WINDOW_MS: "2000",
                WEBHOOK_TIMEOUT_MS: "1500",
                // a small global cap so tests can see it hold; no per-object cap below it, so the gate's
                // fairness (not the object's own limit) is what keeps a small evaluation moving
                JUDGE_MAX_CONCURRENCY: "4",
                JUDGE_MAX_IN_FLIGHT: "64",
                // few enough that the admission tests see evaluations queue behind the running ones
                JUDGE_MAX_RUNNING: "4",
                // the tool's keys, made in Node by the global setup (a secret in production)
                LTI_PRIVATE_KEYS: inject("ltiToolKeys" as never),
                // short, so a test sees the one refetch an unknown kid earns after it, by polling
                LTI_JWKS_COOLDOWN_MS: "1000",
                // a few, so a test sees one client address refused (requests without an address are not counted)
                LTI_LOGINS_PER_MINUTE: "5",
                // an instructor's page waits this long for a slow roster (test/workers/lti-course.test.ts)
                LTI_ROSTER_WAIT_MS: "1500",
                // an open event stream looks its key up this often, so a test sees a revoked key's stream end
                STREAM_KEY_CHECK_MS: "300",
              },
              // a D1 of its own for test/workers/calls-migration.test.ts, which migrates a database as 0026 left it
              d1Databases: ["MIGRATION_DB"],
            },
          })),
        ],
        test: {
          name: "workers",
          include: ["test/workers/**/*.test.ts"],
          // one workerd runtime per vitest worker, shared by the files it runs one after another, not one
          // per file: starting a runtime costs 5-8 s, more than most files take. Files share its D1 and
          // objects, so a test that must see nothing written counts its own tenant's rows (countRows)
          isolate: false,
          globalSetup: ["test/workers/judge-setup.ts"],
          setupFiles: ["test/workers/apply-migrations.ts"],
          testTimeout: 30_000,
        },
      },
      {
        // the judge pool: two judge servers behind JUDGE_ENDPOINTS, one of which the tests kill
        plugins: [
          withoutBrokenSourceMap,
          cloudflareTest(async ({ inject }) => {
            const ports = inject("poolPorts" as never) as { a: number; b: number };
            return {
              wrangler: { configPath: "./wrangler.toml" },
              miniflare: {
                bindings: {
                  TEST_MIGRATIONS: await readD1Migrations(path.join(import.meta.dirname, "migrations")),
                  JUDGE_ENDPOINTS: JSON.stringify([
                    { url: `http://127.0.0.1:${ports.a}/v1`, maxConcurrency: 2, apiKey: "POOL_A_KEY" },
                    { url: `http://127.0.0.1:${ports.b}/v1`, maxConcurrency: 3 },
                  ]),
                  POOL_A_KEY: "sk-pool-a-secret",
                  JUDGE_MODEL: "test-judge",
                  ADMIN_TOKEN: "test-admin-token",
                  JUDGE_TIMEOUT_MS: "1500",
                  JUDGE_RETRY_BASE_MS: "20",
                  JUDGE_RETRY_CAP_MS: "200",
                  JUDGE_DEADLINE_MS: "3000",
                },
              },
            };
          }),
        ],
        test: {
          name: "pool",
          include: ["test/pool/**/*.test.ts"],
          globalSetup: ["test/pool/judges-setup.ts"],
          setupFiles: ["test/workers/apply-migrations.ts"],
          testTimeout: 30_000,
        },
      },
      {
        // a panel of judges (issue 30 item 3): three judge servers, one model each, behind JUDGE_ENDPOINTS
        plugins: [
          withoutBrokenSourceMap,
          cloudflareTest(async ({ inject }) => {
            const ports = inject("panelPorts" as never) as { a: number; b: number; c: number };
            return {
              wrangler: { configPath: "./wrangler.toml" },
              miniflare: {
                bindings: {
                  TEST_MIGRATIONS: await readD1Migrations(path.join(import.meta.dirname, "migrations")),
                  JUDGE_ENDPOINTS: JSON.stringify([
                    { url: `http://127.0.0.1:${ports.a}/v1`, model: "judge-a", maxConcurrency: 2 },
                    { url: `http://127.0.0.1:${ports.b}/v1`, model: "judge-b", maxConcurrency: 2 },
                    { url: `http://127.0.0.1:${ports.c}/v1`, models: ["judge-c"], maxConcurrency: 2 },
                  ]),
                  // the model of an evaluation that names none
                  JUDGE_MODEL: "judge-a",
                  ADMIN_TOKEN: "test-admin-token",
                  JUDGE_TIMEOUT_MS: "1500",
                  JUDGE_RETRY_BASE_MS: "20",
                  JUDGE_RETRY_CAP_MS: "200",
                  JUDGE_DEADLINE_MS: "3000",
                },
              },
            };
          }),
        ],
        test: {
          name: "panel",
          include: ["test/panel/**/*.test.ts"],
          globalSetup: ["test/panel/judges-setup.ts"],
          setupFiles: ["test/workers/apply-migrations.ts"],
          testTimeout: 30_000,
        },
      },
      {
        // the web front in headless Chromium, against the service as `wrangler dev` runs it
        test: {
          name: "browser",
          include: ["test/browser/**/*.test.ts"],
          environment: "node",
          globalSetup: ["test/browser/setup.ts"],
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
    ],
  },
});
