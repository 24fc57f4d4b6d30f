import type { Context, Handler, Hono, MiddlewareHandler } from "hono";
import type { z } from "zod";
import type { KeyScope } from "../contract/names";
import { requiredScope } from "./access";
import { requireAdmin, requireKey } from "./auth";
import { readBody } from "./body";
import type { App } from "./context";

/** The query parameters a route reads, as the document shows them. */
export type QueryDoc = Record<string, { schema: z.ZodType; description: string }>;

/**
 * One route, declared once beside its handler: what `route()` registers (method, path, auth) and what
 * the OpenAPI document shows of it (./openapi/document.ts). Its body schema is the one the handler's
 * `body()` validates with, so the document cannot describe a body the route does not read.
 */
export interface Declaration<P extends string = string, B extends z.ZodType | undefined = z.ZodType | undefined> {
  method: "get" | "post" | "put" | "patch" | "delete" | "options";
  /** hono style (`/:id`), relative to where the router is mounted. */
  path: P;
  summary: string;
  tag: string;
  /** Who may call it: a tenant's API key, the admin token, or anyone. The route checks it itself. */
  auth: "key" | "admin" | "none";
  /**
   * The scope a key needs (auth "key"): left out, `read` for a GET and `write` for anything else
   * (src/api/access.ts). Say `admin` for what concerns the tenant whole, `read` for a POST that only computes.
   */
  scope?: KeyScope;
  /**
   * What the path's `:id` names, for a key limited to one collection: "evaluation" (the one grading
   * its collection may be called) or "collection" (its own). Left out: such a key gets 404 here.
   */
  within?: "evaluation" | "collection";
  query?: QueryDoc;
  body?: B;
  /** The body may be left out (then its defaults hold). */
  bodyOptional?: boolean;
  /** An example body: the docs' own, held equal to it by the docs replay test. */
  example?: unknown;
  /** The success answers, by status: a JSON schema, or a media type other than JSON. */
  ok: Record<number, { description: string; schema?: z.ZodType; mediaType?: string }>;
  /** The refusals it can give besides 401 (and 404 for a route with an id), each problem+json. */
  refusals?: number[];
}

/** What a handler gets beside its context: the declared body, read and validated when it asks. */
export interface RouteInput<B> {
  /**
   * The body validated by the declared schema, or a thrown 400/415 problem. Read when the handler asks,
   * so a route refuses a missing resource (404) or a wrong state (409) before a bad body if it checks them first.
   */
  body(): Promise<B extends z.ZodType ? z.output<B> : never>;
}

const declared = new WeakMap<Hono<App>, Declaration[]>();

/** The guard of a declared route: its auth, and for a key the scope and collection limit it asks. */
function guardOf(d: Declaration): MiddlewareHandler<App> | null {
  if (d.auth === "none") return null;
  if (d.auth === "admin") return requireAdmin;
  return requireKey({ scope: requiredScope(d), within: d.within ?? null });
}

/**
 * Registers the handler on the router behind the declared auth, and records the declaration on the
 * router for the document. The auth is the route's own: wherever the router is mounted, the route
 * checks its key or the admin token before anything else it does.
 */
export function route<P extends string, B extends z.ZodType | undefined = undefined>(
  router: Hono<App>,
  declaration: Declaration<P, B>,
  handler: (c: Context<App, P>, input: RouteInput<B>) => Response | Promise<Response>,
): void {
  const run: Handler<App> = (c) => handler(c, { body: () => declaredBody(c, declaration) as never });
  const method = declaration.method.toUpperCase();
  const guard = guardOf(declaration);
  if (guard) router.on(method, declaration.path, guard, run);
  else router.on(method, declaration.path, run);
  declared.set(router, [...(declared.get(router) ?? []), declaration]);
}

/** The routes declared on the router, in the order they were registered. */
export function declarationsOf(router: Hono<App>): readonly Declaration[] {
  return declared.get(router) ?? [];
}

async function declaredBody(c: Context<App>, declaration: Declaration): Promise<unknown> {
  if (!declaration.body) throw new Error(`${declaration.method} ${declaration.path} declares no body`);
  // an optional body left out entirely (a button that posts nothing) takes its defaults
  if (declaration.bodyOptional && c.req.header("content-type") === undefined && (c.req.header("content-length") ?? "0") === "0")
    return declaration.body.parse({});
  return readBody(c, declaration.body);
}
