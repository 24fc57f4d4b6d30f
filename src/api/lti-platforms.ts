import { eq } from "drizzle-orm";
import { Hono } from "hono";
import { ltiPlatform, ltiPlatformBody, ltiPlatformDeleted, ltiPlatformList, ltiPlatformPatch } from "../contract";
import { withAudit } from "../db/audit";
import { database } from "../db/database";
import { type LtiPlatformRow, platformByIssuerClient, platformOf, platformsOf } from "../db/lti";
import { ltiPlatforms } from "../db/schema";
import { readConfig } from "../platform/config";
import { ProblemError } from "../platform/problems";
import { refuseWebhookUrls } from "../webhooks/url";
import type { App } from "./context";
import { route } from "./route";

/**
 * The LTI 1.3 platforms (LMSs) of a tenant: what its admin copies from the LMS's tool registration.
 * Registering one is the tenant's whole concern (launches from it will reach the tenant's collections),
 * so every route asks the `admin` scope. An issuer and client id name one registration across all
 * tenants: a launch names only those two, and must reach exactly one tenant (a 409 otherwise).
 */
export const ltiPlatformRoutes = new Hono<App>();

const iso = (ms: number) => new Date(ms).toISOString();

function shown(row: LtiPlatformRow) {
  const { tenant: _tenant, createdAt, updatedAt, ...rest } = row;
  return { ...rest, createdAt: iso(createdAt), updatedAt: iso(updatedAt) };
}

/**
 * The platform's URLs follow the webhook host rules (src/webhooks/url.ts): https to a public host, or
 * http to this machine with ALLOW_INSECURE_WEBHOOKS=true. The service fetches the JWKS URL itself (and
 * the token URL, for grade passback), so a private address would let a tenant aim it inside a network.
 */
function refuseUrls(c: { env: Env }, b: { authLoginUrl?: string; accessTokenUrl?: string; jwksUrl?: string }): void {
  refuseWebhookUrls(
    [
      ["authLoginUrl", b.authLoginUrl],
      ["accessTokenUrl", b.accessTokenUrl],
      ["jwksUrl", b.jwksUrl],
    ],
    readConfig(c.env).allowInsecureWebhooks,
  );
}

function taken(issuer: string, clientId: string): ProblemError {
  return new ProblemError(409, `a platform with issuer "${issuer}" and client id "${clientId}" is registered already`);
}

/** The insert or update lost a race to another registration of the same issuer and client id. */
const isUniqueClash = (err: unknown) => /UNIQUE constraint failed/i.test(String((err as Error)?.message ?? err));

route(
  ltiPlatformRoutes,
  {
    method: "post",
    path: "/",
    summary: "Register an LTI 1.3 platform (an LMS)",
    tag: "lti",
    auth: "key",
    scope: "admin",
    body: ltiPlatformBody,
    example: {
      issuer: "https://canvas.instructure.com",
      clientId: "10000000000001",
      deploymentIds: ["1:abc"],
      authLoginUrl: "https://sso.canvaslms.com/api/lti/authorize_redirect",
      accessTokenUrl: "https://sso.canvaslms.com/login/oauth2/token",
      jwksUrl: "https://sso.canvaslms.com/api/lti/security/jwks",
    },
    ok: { 201: { description: "registered", schema: ltiPlatform } },
    refusals: [400, 409],
  },
  async (c, input) => {
    const b = await input.body();
    refuseUrls(c, b);
    const db = database(c.env.DB);
    if (await platformByIssuerClient(db, b.issuer, b.clientId)) throw taken(b.issuer, b.clientId);
    const now = Date.now();
    const row: LtiPlatformRow = { id: `ltip_${crypto.randomUUID()}`, tenant: c.get("tenant"), ...b, createdAt: now, updatedAt: now };
    try {
      await withAudit(
        db,
        [db.insert(ltiPlatforms).values(row)],
        [{ tenant: row.tenant, who: c.get("actor"), what: "lti-platform.register", at: now, detail: { ltiPlatformId: row.id } }],
      );
    } catch (err) {
      if (isUniqueClash(err)) throw taken(b.issuer, b.clientId);
      throw err;
    }
    return c.json(shown(row), 201);
  },
);

route(
  ltiPlatformRoutes,
  {
    method: "get",
    path: "/",
    summary: "The tenant's LTI platforms",
    tag: "lti",
    auth: "key",
    scope: "admin",
    ok: { 200: { description: "the platforms, oldest first", schema: ltiPlatformList } },
  },
  async (c) => c.json({ data: (await platformsOf(database(c.env.DB), c.get("tenant"))).map(shown) }),
);

route(
  ltiPlatformRoutes,
  {
    method: "get",
    path: "/:id",
    summary: "One LTI platform",
    tag: "lti",
    auth: "key",
    scope: "admin",
    ok: { 200: { description: "the platform", schema: ltiPlatform } },
  },
  async (c) => {
    const row = await platformOf(database(c.env.DB), c.get("tenant"), c.req.param("id"));
    if (!row) throw new ProblemError(404, "no such LTI platform");
    return c.json(shown(row));
  },
);

route(
  ltiPlatformRoutes,
  {
    method: "patch",
    path: "/:id",
    summary: "Change an LTI platform's registration",
    tag: "lti",
    auth: "key",
    scope: "admin",
    body: ltiPlatformPatch,
    example: { deploymentIds: ["1:abc", "2:def"] },
    ok: { 200: { description: "the platform as changed", schema: ltiPlatform } },
    refusals: [400, 409],
  },
  async (c, input) => {
    const db = database(c.env.DB);
    const row = await platformOf(db, c.get("tenant"), c.req.param("id"));
    if (!row) throw new ProblemError(404, "no such LTI platform");
    const b = await input.body();
    refuseUrls(c, b);
    const next = { ...row, ...b, updatedAt: Date.now() };
    const clash = await platformByIssuerClient(db, next.issuer, next.clientId);
    if (clash && clash.id !== row.id) throw taken(next.issuer, next.clientId);
    const { id, tenant, createdAt: _c, ...changes } = next;
    try {
      await withAudit(
        db,
        [db.update(ltiPlatforms).set(changes).where(eq(ltiPlatforms.id, id))],
        [
          {
            tenant,
            who: c.get("actor"),
            what: "lti-platform.change",
            at: next.updatedAt,
            detail: { ltiPlatformId: id, fields: Object.keys(b).sort() },
          },
        ],
      );
    } catch (err) {
      if (isUniqueClash(err)) throw taken(next.issuer, next.clientId);
      throw err;
    }
    return c.json(shown(next));
  },
);

route(
  ltiPlatformRoutes,
  {
    method: "delete",
    path: "/:id",
    summary: "Remove an LTI platform: its launches are refused from then on",
    tag: "lti",
    auth: "key",
    scope: "admin",
    ok: { 200: { description: "removed", schema: ltiPlatformDeleted } },
  },
  async (c) => {
    const db = database(c.env.DB);
    const row = await platformOf(db, c.get("tenant"), c.req.param("id"));
    if (!row) throw new ProblemError(404, "no such LTI platform");
    const now = Date.now();
    await withAudit(
      db,
      [db.delete(ltiPlatforms).where(eq(ltiPlatforms.id, row.id))],
      [{ tenant: row.tenant, who: c.get("actor"), what: "lti-platform.delete", at: now, detail: { ltiPlatformId: row.id } }],
    );
    return c.json({ id: row.id, deleted: true as const });
  },
);
