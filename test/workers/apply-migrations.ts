import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterAll } from "vitest";
import { judgeGateStub } from "../../src/stubs";

// Each test file gets its own storage; bring its D1 up to the current schema first.
await applyD1Migrations(env.DB, (env as unknown as { TEST_MIGRATIONS: Parameters<typeof applyD1Migrations>[1] }).TEST_MIGRATIONS);

// And each file ends once the judge gate runs and queues nothing of it, for up to 3 s: an evaluation
// still ending (telling the gate) while vitest tears the file's runtime down fails the whole run with
// "Closing rpc while … was pending". A file that leaves an evaluation held on purpose waits the 3 s.
afterAll(async () => {
  const end = Date.now() + 3_000;
  while (Date.now() < end) {
    const a = await judgeGateStub(env).admission();
    if (a.running === 0 && a.queued === 0) return;
    await new Promise((r) => setTimeout(r, 25));
  }
});
