import { DEFAULT_KEY_SCOPES, type KeyRequest, type KeyScope, keyBody, keyCreated, keyRevoked } from "../contract";
import { and, eq, isNull } from "drizzle-orm";
import { type Context, Hono } from "hono";
import { withAudit } from "../db/audit";
import { findCollection } from "../db/collections";
import { type Db, database } from "../db/database";
import { apiKeys } from "../db/schema";
import { createSecretIfMissing } from "../webhooks/secret";
import { hashToken } from "../platform/tokens";
import { ProblemError } from "../platform/problems";
import type { App } from "./context";
import { newKey } from "./auth";
import { shownOnce } from "./idempotency";
import { route } from "./route";

export const keys = new Hono<App>();

export const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/**
 * Issues an API key for a tenant. Only the hash is stored: the key is shown once, here. The tenant's
 * first key also brings its webhook signing secret, shown once too (later keys of the same tenant do
 * not repeat it: `POST /v1/webhook-secret/rotate` makes a new one). The key and its audit line are
 * written in one batch; the webhook secret after them (it is made once per tenant, whoever asks).
 */
route(
  keys,
  {
    method: "post",
    path: "/",
    summary: "An API key for a tenant",
    tag: "keys",
    auth: "admin",
    body: keyBody,
    example: { tenant: "my-course" },
    ok: { 201: { description: "the key, shown once", schema: keyCreated } },
    refusals: [400],
  },
  async (c, input) => {
    const { tenant, ...request } = await input.body();
    return c.json(await issueKey(c, tenant, request), 201);
  },
);

/**
 * Makes a key of the tenant, with its audit line in one batch, and the tenant's webhook secret when it
 * has none yet. Shared by the operator's route and the tenant's own (`/v1/tenant/keys`).
 */
export async function issueKey(c: Context<App>, tenant: string, request: Omit<KeyRequest, "tenant">) {
  const { rateLimitPerMinute, scopes = [...DEFAULT_KEY_SCOPES], collectionId, expiresAt } = request;
  const now = Date.now();
  const expires = expiresAt === undefined ? null : Date.parse(expiresAt);
  if (expires !== null && expires <= now) throw ProblemError.fields([{ field: "expiresAt", reason: "must be in the future" }]);
  const db = database(c.env.DB);
  if (collectionId !== undefined && !(await findCollection(db, tenant, collectionId)))
    throw ProblemError.fields([{ field: "collectionId", reason: `no collection "${collectionId}" of tenant "${tenant}"` }]);
  const { key, id } = await storeKey(
    db,
    { tenant, scopes, collectionId: collectionId ?? null, expiresAt: expires, rateLimitPerMinute: rateLimitPerMinute ?? null },
    c.get("actor"),
    now,
  );
  const webhookSecret = await createSecretIfMissing(c.env, tenant);
  shownOnce(c);
  const shown = { key, id, tenant, scopes, collectionId: collectionId ?? null, expiresAt: iso(expires) };
  return { ...shown, ...(webhookSecret ? { webhookSecret } : {}) };
}

/**
 * Stores a new key (its hash only) with its `key.create` audit line in one batch, and gives the key
 * once: what every maker of keys shares (the routes here, an instructor's LTI launch). `detail` adds to
 * the audit line's.
 */
export async function storeKey(
  db: Db,
  k: { tenant: string; scopes: KeyScope[]; collectionId: string | null; expiresAt: number | null; rateLimitPerMinute: number | null },
  who: string,
  now: number,
  detail: Record<string, unknown> = {},
): Promise<{ key: string; id: string }> {
  const key = newKey();
  const id = crypto.randomUUID();
  await withAudit(
    db,
    [db.insert(apiKeys).values({ id, keyHash: await hashToken(key), createdAt: now, ...k })],
    [
      {
        tenant: k.tenant,
        who,
        what: "key.create",
        at: now,
        keyId: id,
        collectionId: k.collectionId ?? undefined,
        detail: { scopes: k.scopes, expiresAt: iso(k.expiresAt), ...detail },
      },
    ],
  );
  return { key, id };
}

/**
 * Revokes a key: from now on it is refused as unknown. Revoking it again changes nothing and answers
 * the same (when it was revoked first).
 */
route(
  keys,
  {
    method: "delete",
    path: "/:id",
    summary: "Revoke an API key",
    tag: "keys",
    auth: "admin",
    ok: { 200: { description: "revoked", schema: keyRevoked } },
  },
  async (c) => {
    const row = await database(c.env.DB).query.apiKeys.findFirst({ where: eq(apiKeys.id, c.req.param("id")) });
    if (!row) throw new ProblemError(404, "no such API key");
    return c.json(await revokeKey(c, row));
  },
);

/** Revokes the key; the first revocation's time stands, and asking again answers it. */
export async function revokeKey(c: Context<App>, row: { id: string; tenant: string; revokedAt: number | null }) {
  if (row.revokedAt !== null) return { id: row.id, revokedAt: iso(row.revokedAt) as string };
  const db = database(c.env.DB);
  const now = Date.now();
  // two racing each other may both write a line (both asked)
  const revoke = db
    .update(apiKeys)
    .set({ revokedAt: now })
    .where(and(eq(apiKeys.id, row.id), isNull(apiKeys.revokedAt)));
  await withAudit(db, [revoke], [{ tenant: row.tenant, who: c.get("actor"), what: "key.revoke", at: now, keyId: row.id }]);
  return { id: row.id, revokedAt: iso(now) as string };
}
