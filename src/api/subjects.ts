import { Hono } from "hono";
import { subjectEraseBody, subjectErased } from "../contract";
import { eraseSubject } from "../evaluations/subject-erasure";
import type { App } from "./context";
import { route } from "./route";

/** One person's data across the tenant's evaluations, batches and collections. */
export const subjects = new Hono<App>();

route(
  subjects,
  {
    method: "post",
    path: "/erase",
    summary: "Erase one person's answers across the tenant's evaluations, batches and collections",
    tag: "erasure",
    auth: "key",
    // erasing cannot be undone: only the tenant's admin keys may
    scope: "admin",
    body: subjectEraseBody,
    ok: { 200: { description: "what was touched; nothing of what remains is recomputed", schema: subjectErased } },
    refusals: [400, 415],
  },
  async (c, input) => c.json(await eraseSubject(c.env, c.get("tenant"), await input.body(), c.get("actor"))),
);
