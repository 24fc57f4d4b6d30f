import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterAll } from "vitest";
import { gateIdle } from "./helpers";

// Bring D1 up to the current schema first: the first file of a runtime applies the migrations, the
// files after it (isolate: false in vitest.config.ts) find them applied.
await applyD1Migrations(env.DB, (env as unknown as { TEST_MIGRATIONS: Parameters<typeof applyD1Migrations>[1] }).TEST_MIGRATIONS);

// And each file ends once the judge gate runs and queues nothing of it, for up to 3 s: an evaluation
// still ending (telling the gate) while vitest tears the file's runtime down fails the whole run with
// "Closing rpc while … was pending". A file that leaves an evaluation held on purpose waits the 3 s.
afterAll(() => gateIdle(3_000).catch(() => {}));
