import { Hono } from "hono";
import type { App } from "./context";
import { limits, methods, templates } from "../contract";

/** What the API accepts, for forms to offer: read from the validation schema, so it cannot drift. */
export const meta = new Hono<App>();
meta.get("/", (c) => c.json({ methods, templates, limits }));
