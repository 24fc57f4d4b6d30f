import { Hono } from "hono";
import { selfOrigin } from "./public-origin";
import { bodyLimit } from "hono/body-limit";
import { HTTPException } from "hono/http-exception";
import { methodNotAllowed } from "hono/method-not-allowed";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { ProblemError, problemResponse } from "../platform/problems";
import type { App } from "./context";
import { openApiDocument } from "./openapi/document";
import { goneIfErased } from "./gone";
import { pages } from "./pages";
import { apiRouters } from "./routers";
import { limits } from "../contract";

export function createApp() {
  const app = new Hono<App>();
  // a known path with the wrong method is a 405 naming the methods it takes, not a 404
  app.use(
    methodNotAllowed({
      app,
      // HEAD is answered for every GET route; the Allow header lists the methods a route declares
      onMethodNotAllowed: (c, methods) => {
        const allow = methods.filter((m) => m !== "HEAD");
        return problemResponse(405, `${c.req.method} is not allowed here; use ${allow.join(", ")}`, {
          headers: { allow: allow.join(", ") },
        });
      },
    }),
  );
  // refuse an oversized body before reading it, whether it says its length or streams. The limit reads
  // a streamed body whole before the route runs, so a route with a smaller limit of its own is left
  // out: the public answers' form refuses at its own size, with CORS (./public-collections.ts), where
  // this one would read 8 MB from an anonymous client first and refuse without CORS
  const serviceLimit = bodyLimit({
    maxSize: limits.maxBodyBytes,
    onError: () => problemResponse(413, `the request body is larger than ${limits.maxBodyBytes} bytes`),
  });
  app.use("/v1/*", (c, next) => (c.req.path.startsWith("/v1/public/") ? next() : serviceLimit(c, next)));
  // an erased evaluation, batch or collection is a 410 to its owner on every route (./gone.ts)
  app.use("/v1/*", goneIfErased);
  // each route checks its own key or admin token (./route.ts): where a router is mounted grants nothing
  for (const [prefix, router] of apiRouters) app.route(prefix, router);
  app.route("/", pages);
  app.get("/health", (c) => c.json({ ok: true }));
  // the API's description, generated from the routes' declarations and their zod schemas (./openapi)
  app.get("/openapi.json", (c) => c.json(openApiDocument(selfOrigin(c))));

  app.notFound((c) => problemResponse(404, `no route for ${c.req.method} ${c.req.path}`));

  // every refusal is a thrown problem rendered here; never a stack trace in a response: the detail of
  // anything else goes to the log, the client gets a problem
  app.onError((err) => {
    if (err instanceof ProblemError) return err.getResponse();
    if (err instanceof HTTPException && err.status < 500) return problemResponse(err.status as ContentfulStatusCode, err.message);
    console.error(err);
    return problemResponse(500, "internal error; nothing was changed by this request unless its response said so");
  });
  return app;
}
