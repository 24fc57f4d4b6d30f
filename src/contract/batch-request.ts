import { z } from "zod";
import { metadata } from "./metadata.ts";
import { fieldErrors, type FieldError } from "./problem.ts";
import { retentionDays } from "./tenant-settings-request.ts";
import { evaluationBody, evaluationFields, type EvaluationBody, type EvaluationRequest, limits, webhook } from "./evaluation-request.ts";

/** The envelope; the items are checked one by one below so that each error names its item. */
export const batchEnvelope = z.strictObject({
  defaults: z.record(z.string(), z.unknown()).optional(),
  items: z
    .array(z.unknown())
    .min(1, "needs at least 1 item")
    .max(limits.maxBatchQuestions, `takes at most ${limits.maxBatchQuestions} questions per batch; split the exam into several batches`),
  webhook: webhook.optional(),
  // the batch's questions are kept and erased together: their retention is the batch's
  retentionDays: retentionDays().optional(),
  metadata: metadata.optional(),
});

/** A batch as a client writes it: each item an evaluation's body, partial where `defaults` fills it. */
export type BatchRequest = Omit<z.input<typeof batchEnvelope>, "items" | "defaults"> & {
  items: Partial<EvaluationRequest>[];
  defaults?: Partial<EvaluationRequest>;
};

/** A batch's body as its parser reads it, for the API's description: each item an evaluation's body laid over `defaults`. */
export const batchBody = batchEnvelope.extend({ defaults: evaluationFields.partial().optional(), items: z.array(evaluationBody) });

export interface BatchBody {
  items: EvaluationBody[];
  webhook?: { url: string };
  retentionDays?: number;
  metadata?: Record<string, unknown>;
}

/**
 * A batch body: every item is an evaluation body laid over `defaults` (an item's own fields win).
 * All items are checked before anything is created; every error is reported with its full path
 * (`items[3].answers[1].id`), and nothing is created when there is any.
 */
export function parseBatchBody(json: unknown): { ok: true; value: BatchBody } | { ok: false; errors: FieldError[] } {
  const outer = batchEnvelope.safeParse(json);
  if (!outer.success) return { ok: false, errors: fieldErrors(outer.error) };
  const errors: FieldError[] = [];
  const defaults = outer.data.defaults ?? {};
  const checkedDefaults = evaluationFields.partial().safeParse(defaults);
  // bad defaults would repeat in every item: report them alone
  if (!checkedDefaults.success) return { ok: false, errors: fieldErrors(checkedDefaults.error, ["defaults"]) };
  if ("retentionDays" in defaults)
    return { ok: false, errors: [{ field: "defaults.retentionDays", reason: "set `retentionDays` on the batch, not on its questions" }] };
  const items: EvaluationBody[] = [];
  // `defaults` are a shorthand for what every item repeats, not a way to store more than the batch
  // written out in full could send: 256 answers of 20,000 characters as the defaults of 1,000 items
  // would be 5 GB. So the items as written out, defaults laid over them, count against the body's size.
  const encoder = new TextEncoder();
  let writtenOut = 0;
  outer.data.items.forEach((item, i) => {
    if (item === null || typeof item !== "object" || Array.isArray(item)) {
      errors.push({ field: `items[${i}]`, reason: "must be an object (the body of an evaluation)" });
      return;
    }
    // one question cannot outlive or predecease its batch: its erasure is the batch's
    if ("retentionDays" in item)
      errors.push({ field: `items[${i}].retentionDays`, reason: "set `retentionDays` on the batch, not on a question" });
    const merged = { ...defaults, ...item };
    if (writtenOut <= limits.maxBodyBytes) writtenOut += encoder.encode(JSON.stringify(merged)).length;
    const parsed = evaluationBody.safeParse(merged);
    if (parsed.success) items.push(parsed.data);
    else errors.push(...fieldErrors(parsed.error, ["items", i]));
  });
  if (writtenOut > limits.maxBodyBytes) {
    const reason = `the items written out in full, defaults laid over them, are more than ${limits.maxBodyBytes} bytes, the most a body may be`;
    return { ok: false, errors: [{ field: "defaults", reason }] };
  }
  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    value: { items, webhook: outer.data.webhook, retentionDays: outer.data.retentionDays, metadata: outer.data.metadata },
  };
}
