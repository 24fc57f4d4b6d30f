import { Hono } from "hono";
import { z } from "zod";
import { audit } from "../db/audit";
import { database } from "../db/database";
import { exportStream } from "../evaluations/export";
import { ProblemError } from "../platform/problems";
import type { App } from "./context";
import { route } from "./route";

/**
 * Exports of the tenant's data as NDJSON (src/evaluations/export.ts): the whole tenant, and one person.
 * Both hand out every text and name they cover, so only the tenant's admin keys may, and each is in the
 * audit trail (who asked, when; never whom an export of a person was about: that is a name).
 */
export const tenantExport = new Hono<App>();
export const subjectExport = new Hono<App>();

const NDJSON = "application/x-ndjson";
const ndjson = (stream: ReadableStream<Uint8Array>) =>
  new Response(stream, { headers: { "content-type": `${NDJSON}; charset=utf-8`, "cache-control": "no-store" } });

route(
  tenantExport,
  {
    method: "get",
    path: "/export",
    summary: "Every evaluation, answer, grade, feedback and collection of the tenant, as NDJSON",
    tag: "erasure",
    auth: "key",
    scope: "admin",
    ok: { 200: { description: "one JSON object a line, each with its `type`, streamed", mediaType: NDJSON } },
    refusals: [403],
  },
  async (c) => {
    const tenant = c.get("tenant");
    await audit(database(c.env.DB), { tenant, who: c.get("actor"), what: "tenant.export", at: Date.now() });
    return ndjson(exportStream(c.env, tenant, null));
  },
);

route(
  subjectExport,
  {
    method: "get",
    path: "/export",
    summary: "One person's answers, grades, feedback and submitted answers, as NDJSON",
    tag: "erasure",
    auth: "key",
    scope: "admin",
    query: { examinee: { schema: z.string(), description: "the examinee (or the name a collection answer was submitted under)" } },
    ok: { 200: { description: "one JSON object a line, each with its `type`, streamed", mediaType: NDJSON } },
    refusals: [400, 403],
  },
  async (c) => {
    const examinee = c.req.query("examinee") ?? "";
    if (examinee === "" || examinee.length > 200)
      throw ProblemError.fields([{ field: "examinee", reason: "name the examinee whose data to export (1 to 200 characters)" }]);
    const tenant = c.get("tenant");
    await audit(database(c.env.DB), { tenant, who: c.get("actor"), what: "subject.export", at: Date.now() });
    return ndjson(exportStream(c.env, tenant, examinee));
  },
);
