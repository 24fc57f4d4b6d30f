import { readConfig, type ServiceConfig } from "../platform/config";
import { insertBatch, markBatchNotStarted } from "../db/batches";
import { deleteEvaluation, insertEvaluation } from "../db/evaluations";
import { database } from "../db/database";
import { type JudgePool, unservedJudge } from "../judge/pool";
import { ProblemError } from "../platform/problems";
import { judgeGateStub } from "../platform/stubs";
import { refuseWebhookUrls } from "../webhooks/url";
import type { BatchBody, EvaluationBody } from "../contract";
import type { EvaluationInput } from "../model/evaluation";
import { evaluationInput, newId } from "./input";
import { type Estimate, estimate } from "../estimate/dry-run";

/**
 * How an evaluation comes to be, whoever asks (POST /v1/evaluations, a batch, a collection that
 * closed): the judge must be configured, every webhook URL must pass the one policy, then the rows are
 * saved and the evaluation queued at its judge's gate, which starts it when there is room. A refusal
 * is thrown as a ProblemError before anything is written; a failure to queue undoes the write.
 */
export async function createEvaluation(
  env: Env,
  tenant: string,
  body: EvaluationBody,
  options: { id?: string } = {},
): Promise<{ id: string }> {
  const config = readConfig(env);
  // a bad request is the caller's to fix whatever the judge's state, as when the schema refused it
  refuseWebhookUrls([["webhook.url", body.webhook?.url]], config.allowInsecureWebhooks);
  requireJudge(config);
  refuseUnservedJudges(config.pool, [["judge", body]]);
  // the id can be chosen by the caller: a collection names its evaluation so a retried close makes one
  const input = evaluationInput(body, tenant, {
    id: options.id,
    structuredOutputs: config.structuredOutputs,
    maxTokens: config.judge.maxTokens,
  });
  await queueEvaluation(env, input, {
    webhookUrl: input.webhookUrl ?? null,
    metadata: body.metadata ?? null,
    retentionDays: body.retentionDays,
  });
  return { id: input.id };
}

/** Saves an evaluation's rows and queues it at its judge's gate; a failure to queue undoes the write. */
export async function queueEvaluation(
  env: Env,
  input: EvaluationInput,
  extra: { webhookUrl: string | null; metadata: unknown; retentionDays?: number | null },
): Promise<void> {
  const tenant = input.tenant;
  const db = database(env.DB);
  await insertEvaluation(db, input, extra);
  try {
    await judgeGateStub(env).enqueue([{ id: input.id, tenant }]);
  } catch (err) {
    await deleteEvaluation(db, input.id);
    console.error("could not queue the evaluation", input.id, err);
    throw new ProblemError(503, "the evaluation could not be queued; nothing was saved, try again");
  }
}

/**
 * A batch: every question saved in one transaction, then queued at the gate in one message. Should
 * that fail twice, its questions are marked failed, never left queued with nothing to run them.
 */
export async function createBatch(env: Env, tenant: string, body: BatchBody): Promise<{ id: string; total: number }> {
  const config = readConfig(env);
  refuseWebhookUrls(
    [
      ["webhook.url", body.webhook?.url],
      ...body.items.map((item, i): [string, string | undefined] => [`items[${i}].webhook.url`, item.webhook?.url]),
    ],
    config.allowInsecureWebhooks,
  );
  requireJudge(config);
  refuseUnservedJudges(
    config.pool,
    body.items.map((item, i) => [`items[${i}].judge`, item]),
  );
  const id = newId("ba");
  const now = Date.now();
  const inputs = body.items.map((item, index) => ({
    input: evaluationInput(item, tenant, {
      batch: { id, index },
      now,
      structuredOutputs: config.structuredOutputs,
      maxTokens: config.judge.maxTokens,
    }),
    metadata: item.metadata ?? null,
  }));
  const db = database(env.DB);
  const batch = {
    id,
    tenant,
    webhookUrl: body.webhook?.url ?? null,
    metadata: body.metadata ?? null,
    retentionDays: body.retentionDays ?? null,
  };
  await insertBatch(db, { ...batch, createdAt: now }, inputs);
  const entries = inputs.map(({ input }) => ({ id: input.id, tenant, batch: true }));
  const gate = judgeGateStub(env);
  try {
    await gate.enqueue(entries).catch(() => gate.enqueue(entries));
  } catch (err) {
    console.error("could not queue the batch", id, err);
    await markBatchNotStarted(db, id, Date.now());
  }
  return { id, total: inputs.length };
}

/**
 * `POST /v1/evaluations?dryRun=true`: every check a creation makes, then what grading would take
 * (src/estimate), with nothing saved or queued.
 */
export async function dryRunEvaluation(
  env: Env,
  tenant: string,
  body: EvaluationBody,
): Promise<Estimate & { extraCalls: { requested: number; usable: number } }> {
  const config = readConfig(env);
  // a bad request is the caller's to fix whatever the judge's state, as when the schema refused it
  refuseWebhookUrls([["webhook.url", body.webhook?.url]], config.allowInsecureWebhooks);
  requireJudge(config);
  refuseUnservedJudges(config.pool, [["judge", body]]);
  const input = evaluationInput(body, tenant, { structuredOutputs: config.structuredOutputs, maxTokens: config.judge.maxTokens });
  return { ...(await estimate(env, tenant, [input])), extraCalls: extraCallsOf([body], [input]) };
}

/** `POST /v1/batches?dryRun=true`: the batch's checks, then what grading all its questions would take. */
export async function dryRunBatch(
  env: Env,
  tenant: string,
  body: BatchBody,
): Promise<Estimate & { extraCalls: { requested: number; usable: number } }> {
  const config = readConfig(env);
  refuseWebhookUrls(
    [
      ["webhook.url", body.webhook?.url],
      ...body.items.map((item, i): [string, string | undefined] => [`items[${i}].webhook.url`, item.webhook?.url]),
    ],
    config.allowInsecureWebhooks,
  );
  requireJudge(config);
  refuseUnservedJudges(
    config.pool,
    body.items.map((item, i) => [`items[${i}].judge`, item]),
  );
  const inputs = body.items.map((item) =>
    evaluationInput(item, tenant, { structuredOutputs: config.structuredOutputs, maxTokens: config.judge.maxTokens }),
  );
  return { ...(await estimate(env, tenant, inputs)), extraCalls: extraCallsOf(body.items, inputs) };
}

/**
 * The extra calls asked for and those the answers can use (`usableExtraCalls`), which the estimate counts
 * and the evaluations are created with: a dry run says when a request asks for more than can be spent.
 */
function extraCallsOf(bodies: readonly EvaluationBody[], inputs: readonly EvaluationInput[]): { requested: number; usable: number } {
  return {
    requested: bodies.reduce((s, b) => s + (b.extraCalls ?? 0), 0),
    usable: inputs.reduce((s, i) => s + (i.extraCalls ?? 0), 0),
  };
}

/**
 * A 400 naming the field (`judge.panel[i]`, `judge.model`; `items[i].judge…` in a batch) of a judge no
 * endpoint of the pool is configured to serve (issue 30; src/judge/pool.ts unservedJudge): refused
 * before anything is saved, rather than failed when the evaluation starts. A pool that names no model
 * learns its models when an evaluation starts, which checks them then.
 */
export function refuseUnservedJudges(pool: JudgePool, bodies: readonly [string, Pick<EvaluationBody, "judge">][]): void {
  const errors = bodies.flatMap(([field, body]) => {
    const unserved = unservedJudge(pool, body.judge);
    if (!unserved) return [];
    const served = pool.models.join(", ");
    return [
      { field: `${field}.${unserved.field}`, reason: `no judge endpoint serves the model ${unserved.model} (the pool serves ${served})` },
    ];
  });
  if (errors.length) throw ProblemError.fields(errors);
}

/** A 503 when no judge can be asked; a refused configuration is logged in full for the operator. */
export function requireJudge(config: ServiceConfig): asserts config is ServiceConfig & { pool: JudgePool } {
  if (config.poolError) {
    console.error(`the judge is misconfigured: ${config.poolErrorDetail ?? config.poolError}`);
    throw new ProblemError(503, `the judge is misconfigured: ${config.poolError}`);
  }
  if (!config.pool)
    throw new ProblemError(503, "no judge is configured: set JUDGE_BASE_URL (or JUDGE_ENDPOINTS for a pool of judge servers)");
}
