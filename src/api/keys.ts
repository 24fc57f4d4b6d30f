import { DEFAULT_KEY_SCOPES, type KeyRequest, type KeyScope, keyBody, keyCreated, keyRevoked, limits } from "../contract";
import { and, eq, isNull } from "drizzle-orm";
import { type Context, Hono } from "hono";
import { type AuditEntry, withAudit } from "../db/audit";
import { insertKeyUnderCap } from "../db/keys";
import { type Minter, mintedLimits } from "../limits/key-limits";
import { readConfig } from "../platform/config";
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
 * has none yet. Shared by the operator's route and the tenant's own (`/v1/tenant/keys`): a key the
 * tenant makes for itself (`minter`, the key asking) is never less limited than that key
 * (src/limits/key-limits.ts), and is refused with 409 when the tenant has `maxActiveKeysPerTenant`
 * active keys already. The operator sets anything, and is never refused for the count.
 */
export async function issueKey(c: Context<App>, tenant: string, request: Omit<KeyRequest, "tenant">, minter: Minter | null = null) {
  const { scopes = [...DEFAULT_KEY_SCOPES], collectionId } = request;
  const now = Date.now();
  const asked = request.expiresAt === undefined ? undefined : Date.parse(request.expiresAt);
  if (asked !== undefined && asked <= now) throw ProblemError.fields([{ field: "expiresAt", reason: "must be in the future" }]);
  let rateLimitPerMinute = request.rateLimitPerMinute ?? null;
  let expires = asked ?? null;
  if (minter) {
    const minted = mintedLimits(
      { rateLimitPerMinute: request.rateLimitPerMinute, expiresAt: asked },
      minter,
      readConfig(c.env).rateLimitPerMinute,
    );
    if (!minted.ok) throw ProblemError.fields(minted.errors);
    ({ rateLimitPerMinute, expiresAt: expires } = minted);
  }
  const db = database(c.env.DB);
  if (collectionId !== undefined && !(await findCollection(db, tenant, collectionId)))
    throw ProblemError.fields([{ field: "collectionId", reason: `no collection "${collectionId}" of tenant "${tenant}"` }]);
  const { key, id } = await storeKey(
    db,
    { tenant, scopes, collectionId: collectionId ?? null, expiresAt: expires, rateLimitPerMinute },
    c.get("actor"),
    now,
    {},
    minter ? limits.maxActiveKeysPerTenant : undefined,
  );
  const webhookSecret = await createSecretIfMissing(c.env, tenant);
  shownOnce(c);
  const shown = { key, id, tenant, scopes, collectionId: collectionId ?? null, expiresAt: iso(expires), rateLimitPerMinute };
  return { ...shown, ...(webhookSecret ? { webhookSecret } : {}) };
}

/**
 * Stores a new key (its hash only) with its `key.create` audit line in one batch, and gives the key
 * once: what every maker of keys shares (the routes here, an instructor's LTI launch). `detail` adds to
 * the audit line's. With `cap`, nothing is stored, and the answer is a 409, when the tenant has that
 * many active keys already.
 */
export async function storeKey(
  db: Db,
  k: { tenant: string; scopes: KeyScope[]; collectionId: string | null; expiresAt: number | null; rateLimitPerMinute: number | null },
  who: string,
  now: number,
  detail: Record<string, unknown> = {},
  cap?: number,
): Promise<{ key: string; id: string }> {
  const key = newKey();
  const id = crypto.randomUUID();
  const row = { id, keyHash: await hashToken(key), createdAt: now, ...k };
  const line: AuditEntry = {
    tenant: k.tenant,
    who,
    what: "key.create",
    at: now,
    keyId: id,
    collectionId: k.collectionId ?? undefined,
    detail: { scopes: k.scopes, expiresAt: iso(k.expiresAt), ...detail },
  };
  if (cap === undefined) await withAudit(db, [db.insert(apiKeys).values(row)], [line]);
  else if (!(await insertKeyUnderCap(db, row, line, cap, now)))
    throw new ProblemError(
      409,
      `tenant "${k.tenant}" already has ${cap} active API keys, the most it may make for itself; revoke one (DELETE /v1/tenant/keys/:id) or let one expire first`,
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
