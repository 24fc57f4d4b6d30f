import { webhookQueueStub } from "../platform/stubs";

export type WebhookType = "evaluation.completed" | "evaluation.failed" | "batch.completed" | "evaluation.released" | "collection.released";

/**
 * Queues a signed webhook for delivery by the tenant's WebhookDelivery object. Idempotent: the message
 * id is derived from the event and its subject, so queuing the same event again (a retried alarm)
 * delivers it once. For evaluations and batches alike:
 * `enqueueWebhook(env, { tenant, url, type: "batch.completed", subject: batchId, data: { id, status, ... } })`.
 * An event that can happen many times to one subject (a release) names each time with `occurrence`.
 */
export async function enqueueWebhook(
  env: Env,
  event: {
    tenant: string;
    url: string;
    type: WebhookType;
    subject: string;
    occurrence?: string;
    data: { id: string; status: string } & Record<string, unknown>;
  },
): Promise<string> {
  const id = `msg_${event.type.replace(".", "_")}_${event.subject}${event.occurrence ? `_${event.occurrence}` : ""}`;
  const body = JSON.stringify({ type: event.type, timestamp: new Date().toISOString(), data: event.data });
  await webhookQueue(env, event.tenant).enqueue({
    id,
    tenant: event.tenant,
    subject: event.subject,
    url: event.url,
    type: event.type,
    body,
  });
  return id;
}

/** The delivery log of one evaluation or batch (the caller checks it belongs to the tenant). */
export function webhookDeliveries(env: Env, tenant: string, subject: string) {
  return webhookQueue(env, tenant).deliveries(subject);
}

function webhookQueue(env: Env, tenant: string) {
  return webhookQueueStub(env, tenant);
}
