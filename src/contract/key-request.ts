import { z } from "zod";

/** An API key for a tenant (POST /v1/keys, admin only). */
export const keyBody = z.strictObject({
  tenant: z
    .string()
    .min(1, "must not be empty")
    .max(100)
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, "letters, digits, '.', '_' and '-' only"),
  /** This key's own rate limit, overriding RATE_LIMIT_PER_MINUTE; 0: none. */
  rateLimitPerMinute: z.number().int().min(0).max(1_000_000).optional(),
});
export type KeyRequest = z.input<typeof keyBody>;
