import { z } from "zod";

/** The longest retention one may ask for: ten years, past any school's record-keeping rule. */
export const MAX_RETENTION_DAYS = 3650;

/**
 * Days after its creation an evaluation, batch or collection is erased by the hourly retention run; a
 * whole number from 1 to ten years.
 */
export const retentionDays = () =>
  z
    .number()
    .int("must be a whole number of days")
    .min(1, "must be at least 1 day")
    .max(MAX_RETENTION_DAYS, `must be at most ${MAX_RETENTION_DAYS} days`);

/** PUT /v1/tenant/settings: `retentionDays` null keeps everything until it is erased by hand. */
export const tenantSettingsBody = z.strictObject({
  retentionDays: retentionDays().nullable(),
});
export type TenantSettingsRequest = z.input<typeof tenantSettingsBody>;

const ids = z.array(z.string());

/** What the next retention run would erase of this tenant, were it to run now with the data as it is. */
export const retentionPlanView = z.object({
  at: z.string().describe("ISO 8601: when the next hourly run starts (UTC)"),
  counts: z.object({ evaluations: z.number().int(), batches: z.number().int(), collections: z.number().int() }),
  evaluations: ids,
  batches: ids,
  collections: ids,
  later: z.number().int().describe("due by then, but past what one run erases: left to the runs after it"),
});

/** GET /v1/tenant/settings, and what PUT answers. */
export const tenantSettings = z.object({
  retentionDays: z.number().int().nullable().describe("null: nothing is erased by age"),
  nextRun: retentionPlanView,
});
export type TenantSettings = z.infer<typeof tenantSettings>;
