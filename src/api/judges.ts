import { Hono } from "hono";
import { readConfig } from "../platform/config";
import { requireJudge } from "../evaluations/create";
import { judgeGateStub } from "../platform/stubs";
import { judges as judgesSchema } from "../contract";
import type { App } from "./context";
import { route } from "./route";

/**
 * GET /v1/judges: the judge pool as it is now, for any key: each endpoint's model, cap, load, counts,
 * latency and circuit. The same for every tenant (the pool is the service's), and without secrets: an
 * endpoint's URL carries none (the pool's configuration refuses credentials in it) and its key is not shown.
 */
export const judges = new Hono<App>();

route(
  judges,
  {
    method: "get",
    path: "/",
    summary: "The judge pool now: each endpoint's model, cap, load, counts, latency and circuit",
    tag: "meta",
    auth: "key",
    ok: { 200: { description: "the pool", schema: judgesSchema } },
    refusals: [503],
  },
  async (c) => {
    const config = readConfig(c.env);
    requireJudge(config);
    return c.json(await judgeGateStub(c.env, config.pool.key).judges());
  },
);
