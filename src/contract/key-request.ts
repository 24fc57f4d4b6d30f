import { z } from "zod";
import { KEY_SCOPES } from "./names.ts";

/**
 * What a key may do, each level holding the ones below it: `read` every GET and the event streams,
 * `write` also every POST, PUT and DELETE of the tenant's resources (what every key could do before
 * scopes), `admin` also what concerns the tenant whole (its audit trail; erasure and export).
 */
export const keyScope = z.enum(KEY_SCOPES);

/** The scopes a key gets when its request names none: the full access every key had before scopes. */
export const DEFAULT_KEY_SCOPES = ["read", "write"] as const satisfies readonly (typeof KEY_SCOPES)[number][];

/** An API key for a tenant (POST /v1/keys, admin only). */
export const keyBody = z.strictObject({
  tenant: z
    .string()
    .min(1, "must not be empty")
    .max(100)
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, "letters, digits, '.', '_' and '-' only"),
  /**
   * This key's own rate limit, overriding RATE_LIMIT_PER_MINUTE; 0: none. A key a tenant makes for
   * itself: at most the making key's (src/limits/key-limits.ts).
   */
  rateLimitPerMinute: z.number().int().min(0).max(1_000_000).optional(),
  /** What the key may do (see keyScope); left out: read and write. */
  scopes: z
    .array(keyScope)
    .min(1, "must name at least one scope")
    .max(KEY_SCOPES.length)
    .refine((s) => new Set(s).size === s.length, "must not repeat a scope")
    .optional(),
  /** Limits the key to one of the tenant's collections and the evaluation that grades it (a course assistant's). */
  collectionId: z.string().min(1, "must not be empty").max(100).optional(),
  /** After it the key is refused (401). */
  expiresAt: z.iso.datetime({ offset: true, message: "must be an ISO 8601 date-time, e.g. 2026-12-01T12:00:00Z" }).optional(),
});
export type KeyRequest = z.input<typeof keyBody>;

/** A key a tenant makes for itself (POST /v1/tenant/keys, a key of `admin` scope): the tenant is the caller's. */
export const tenantKeyBody = keyBody.omit({ tenant: true });
export type TenantKeyRequest = z.input<typeof tenantKeyBody>;
