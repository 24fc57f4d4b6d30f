import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { HTTPException } from "hono/http-exception";
import type { App } from "./auth";
import { batches } from "./batches";
import { evaluations } from "./evaluations";
import { ratings } from "./ratings";
import { collections } from "./collections";
import { keys } from "./keys";
import { publicCollections } from "./public-collections";
import { receipts } from "./receipts";
import { meta } from "./meta";
import { pages } from "./pages";
import { shared, shareLinks } from "./shares";
import { problem } from "./problem";
import { limits } from "./schemas";
import { webhookSecret } from "./webhooks";

/** Which methods each route takes, so that a known path with the wrong method is a 405, not a 404. */
export const routes: [RegExp, string[]][] = [
  [/^\/v1\/keys\/?$/, ["POST"]],
  [/^\/v1\/evaluations\/?$/, ["GET", "POST"]],
  [/^\/v1\/evaluations\/[^/]+\/?$/, ["GET", "DELETE"]],
  [/^\/v1\/evaluations\/[^/]+\/deliveries\/?$/, ["GET"]],
  [/^\/v1\/webhook-secret\/rotate\/?$/, ["POST"]],
  [/^\/v1\/batches\/?$/, ["POST"]],
  [/^\/v1\/batches\/[^/]+\/?$/, ["GET"]],
  [/^\/v1\/batches\/[^/]+\/ratings\/?$/, ["GET"]],
  [/^\/v1\/batches\/[^/]+\/deliveries\/?$/, ["GET"]],
  [/^\/v1\/ratings\/?$/, ["POST"]],
  [/^\/v1\/evaluations\/[^/]+\/events\/?$/, ["GET"]],
  [/^\/v1\/evaluations\/[^/]+\/share\/?$/, ["POST", "DELETE"]],
  [/^\/v1\/shared\/[^/]+\/?$/, ["GET"]],
  [/^\/v1\/meta\/?$/, ["GET"]],
  [/^\/v1\/collections\/?$/, ["POST"]],
  [/^\/v1\/collections\/[^/]+\/?$/, ["GET"]],
  [/^\/v1\/collections\/[^/]+\/close\/?$/, ["POST"]],
  [/^\/v1\/public\/collections\/[^/]+\/?$/, ["GET"]],
  [/^\/v1\/public\/collections\/[^/]+\/answers\/?$/, ["POST", "OPTIONS"]],
  [/^\/v1\/receipts\/[^/]+\/?$/, ["GET"]],
];

export function createApp() {
  const app = new Hono<App>();
  // refuse an oversized body before reading it, whether it says its length or streams
  app.use(
    "/v1/*",
    bodyLimit({
      maxSize: limits.maxBodyBytes,
      onError: (c) => problem(c, 413, `the request body is larger than ${limits.maxBodyBytes} bytes`),
    }),
  );
  app.route("/v1/keys", keys);
  app.route("/v1/webhook-secret", webhookSecret);
  app.route("/v1/evaluations", evaluations);
  app.route("/v1/batches", batches);
  app.route("/v1/ratings", ratings);
  app.route("/v1/evaluations", shareLinks);
  app.route("/v1/shared", shared);
  app.route("/v1/meta", meta);
  app.route("/v1/collections", collections);
  app.route("/v1/public/collections", publicCollections);
  app.route("/v1/receipts", receipts);
  app.route("/", pages);
  app.get("/health", (c) => c.json({ ok: true }));

  app.notFound((c) => {
    const allowed = routes.find(([pattern]) => pattern.test(c.req.path))?.[1];
    if (allowed && !allowed.includes(c.req.method)) {
      return problem(c, 405, `${c.req.method} is not allowed here; use ${allowed.join(", ")}`, { headers: { allow: allowed.join(", ") } });
    }
    return problem(c, 404, `no route for ${c.req.method} ${c.req.path}`);
  });

  // never a stack trace in a response: the detail goes to the log, the client gets a problem
  app.onError((err, c) => {
    if (err instanceof HTTPException && err.status < 500) return problem(c, err.status as 400, err.message);
    console.error(err);
    return problem(c, 500, "internal error; nothing was changed by this request unless its response said so");
  });
  return app;
}
