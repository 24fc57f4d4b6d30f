import { Hono } from "hono";
import type { App } from "./context";
import { limits, meta as metaSchema, methods, templates } from "../contract";
import { route } from "./route";

/** What the API accepts, for forms to offer: read from the validation schema, so it cannot drift. */
export const meta = new Hono<App>();
route(
  meta,
  {
    method: "get",
    path: "/",
    summary: "The methods, templates and limits the API validates against",
    tag: "meta",
    auth: "none",
    ok: { 200: { description: "the lists", schema: metaSchema } },
  },
  (c) => c.json({ methods, templates, limits }),
);
