import { z } from "zod";
import { AUDIT_VERBS, KEY_SCOPES } from "./names.ts";
import { limits } from "./limits.ts";
import { iso } from "./response-parts.ts";

export const keyCreated = z.looseObject({
  key: z.string(),
  /** The key's id: what `DELETE /v1/keys/:id` revokes and what audit lines name as `who`. */
  id: z.string(),
  tenant: z.string(),
  scopes: z.array(z.enum(KEY_SCOPES)),
  collectionId: z.string().nullable(),
  expiresAt: iso.nullable(),
  /** The key's own requests a minute (0: no limit); null: the service's RATE_LIMIT_PER_MINUTE. */
  rateLimitPerMinute: z.number().int().nullable(),
  webhookSecret: z.string().optional(),
});

export const keyRevoked = z.looseObject({ id: z.string(), revokedAt: iso });

/** A key as its tenant sees it in the list: never the key itself (only its hash is kept). */
export const keyListed = z.looseObject({
  id: z.string(),
  scopes: z.array(z.enum(KEY_SCOPES)),
  collectionId: z.string().nullable(),
  expiresAt: iso.nullable(),
  rateLimitPerMinute: z.number().int().nullable(),
  createdAt: iso,
  revokedAt: iso.nullable(),
});

export const keyList = z.looseObject({ keys: z.array(keyListed) });

export const secretRotated = z.looseObject({ webhookSecret: z.string(), previousValidUntil: iso });

/**
 * One line of the audit trail: who did what to which resource, when. Ids only: never an answer's text,
 * a feedback's text, a grade's score or note, or a student's name.
 */
export const auditLine = z.looseObject({
  id: z.string(),
  at: iso,
  /** The API key's id, or "admin" for the service's admin token. */
  who: z.string(),
  what: z.enum(AUDIT_VERBS),
  evaluationId: z.string().nullable(),
  answerId: z.string().nullable(),
  collectionId: z.string().nullable(),
  /** The key a `key.create` or `key.revoke` is about. */
  keyId: z.string().nullable(),
  /** A key's scopes and expiry (`key.create`), how many things an action touched: never a text. */
  detail: z
    .looseObject({
      scopes: z.array(z.enum(KEY_SCOPES)).optional(),
      expiresAt: iso.nullable().optional(),
      count: z.number().int().optional(),
      /** The batch a `batch.erase` is about. */
      batchId: z.string().optional(),
      /** The tenant's retention from a `settings.change` on (null: none). */
      retentionDays: z.number().int().nullable().optional(),
      /** The LTI platform an `lti-platform.*` line is about, and the fields a change touched. */
      ltiPlatformId: z.string().optional(),
      fields: z.array(z.string()).optional(),
    })
    .nullable(),
});

export const auditPage = z.looseObject({ data: z.array(auditLine), nextCursor: z.string().nullable() });

export const judges = z.object({
  model: z.string().nullable(),
  /** The models the pool's configuration names (several: a call goes to an endpoint of its model); empty when none is named. */
  models: z.array(z.string()).optional(),
  capacity: z.number().int(),
  inFlight: z.number().int(),
  waiting: z.number().int(),
  admission: z.object({ limit: z.number().int(), running: z.number().int(), queued: z.number().int() }),
  endpoints: z.array(
    z.object({
      url: z.string(),
      model: z.string().nullable(),
      /** Every model it is configured to serve, where configured. */
      models: z.array(z.string()).optional(),
      cap: z.number().int(),
      weight: z.number(),
      inFlight: z.number().int(),
      served: z.number().int(),
      failed: z.number().int(),
      latencyMs: z.object({ p50: z.number(), p95: z.number(), calls: z.number().int() }).nullable(),
      circuit: z.object({
        state: z.enum(["closed", "open", "probing", "out"]),
        failuresInARow: z.number().int(),
        openedAt: z.string().nullable(),
        nextProbeAt: z.string().nullable(),
        reason: z.string().nullable(),
      }),
    }),
  ),
});

/** What the API validates against (src/contract/limits.ts): every limit a number. */
export const meta = z.looseObject({
  methods: z.array(z.string()),
  templates: z.array(z.string()),
  limits: z.looseObject(Object.fromEntries(Object.keys(limits).map((name) => [name, z.number()]))),
});

export type KeyCreated = z.output<typeof keyCreated>;

export type KeyRevoked = z.output<typeof keyRevoked>;

export type KeyList = z.output<typeof keyList>;

export type AuditLine = z.output<typeof auditLine>;

export type AuditPage = z.output<typeof auditPage>;

export type JudgesView = z.output<typeof judges>;

export type EndpointView = JudgesView["endpoints"][number];

export type Meta = z.output<typeof meta>;
