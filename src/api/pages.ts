import { Hono, type Context } from "hono";
import { collectionByPublicToken } from "../db/collections";
import { database } from "../db/database";
import type { App } from "./context";
import { framedBy, pagePolicy } from "./content-policy";
import { tokenOfErased } from "../evaluations/erasure";

/**
 * Pages whose URL carries a token (/share/:token, /receipt/:token): the Worker answers them with the
 * page's static HTML from public/, and the page's script reads the token from its own URL. The HTML
 * is the same for every token, so it holds nothing secret; it is not cached with the token's URL.
 */
export const pages = new Hono<App>();

export async function staticPage(c: Context<App>, path: string, headers: Record<string, string> = {}): Promise<Response> {
  const page = await c.env.ASSETS.fetch(new Request(new URL(path, c.req.url)));
  const out = new Response(page.body, page);
  out.headers.set("cache-control", "no-store");
  // a token in the URL must not leak to other sites through the Referer header
  out.headers.set("referrer-policy", "no-referrer");
  for (const [k, v] of Object.entries(headers)) out.headers.set(k, v);
  return out;
}

/** The page of a link to something erased: a 410 that says it was removed. */
async function removedPage(c: Context<App>): Promise<Response> {
  const page = await staticPage(c, "/removed");
  return new Response(page.body, { status: 410, headers: page.headers });
}

pages.get("/share/:token", async (c) => ((await tokenOfErased(c.env, c.req.param("token"))) ? removedPage(c) : staticPage(c, "/share")));
pages.get("/receipt/:token", async (c) =>
  (await tokenOfErased(c.env, c.req.param("token"))) ? removedPage(c) : staticPage(c, "/receipt"),
);

/**
 * The iframe form. Only the collection's allowed origins may frame it (CSP frame-ancestors), so another
 * site cannot put the form on its own pages; opened on its own it is a plain answer page. The rest of
 * the policy is every page's: the page lives on the origin whose localStorage holds a teacher's key.
 */
pages.get("/embed/:token", async (c) => {
  const row = await collectionByPublicToken(database(c.env.DB), c.req.param("token"));
  if (!row && (await tokenOfErased(c.env, c.req.param("token")))) return removedPage(c);
  return staticPage(c, "/embed", { "content-security-policy": framedBy(pagePolicy, row ? row.allowedOrigins : []) });
});
