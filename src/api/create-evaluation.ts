import { readConfig } from "../config";
import { database, deleteEvaluation, insertEvaluation } from "../db/evaluations";
import type { JudgeGate } from "../../durable-objects/judge-gate";
import type { EvaluationInput } from "../evaluation";
import { evaluationInput } from "./input";
import type { EvaluationBody } from "./schemas";
import { judgeGateStub } from "../stubs";

export type Created = { ok: true; id: string } | { ok: false; status: 503; detail: string };

/**
 * Saves a validated evaluation and queues it at its judge's gate, which starts it when there is room:
 * the one way an evaluation comes to be, whether a client posted it or a collection closed. On failure
 * nothing stays half-written.
 */
export async function createEvaluation(env: Env, tenant: string, b: EvaluationBody, id = newEvaluationId()): Promise<Created> {
  if (!env.JUDGE_BASE_URL) return { ok: false, status: 503, detail: "no judge is configured: set JUDGE_BASE_URL" };
  // the id can be chosen by the caller: a collection names its evaluation so a retried close makes one
  const input: EvaluationInput = { ...evaluationInput(b, tenant, { structuredOutputs: readConfig(env).structuredOutputs }), id };
  const db = database(env.DB);
  await insertEvaluation(db, input, { webhookUrl: b.webhook?.url ?? null, metadata: b.metadata ?? null });
  try {
    await judgeGate(env).enqueue([{ id: input.id, tenant }]);
  } catch (err) {
    await deleteEvaluation(db, input.id);
    console.error("could not queue the evaluation", input.id, err);
    return { ok: false, status: 503, detail: "the evaluation could not be queued; nothing was saved, try again" };
  }
  return { ok: true, id: input.id };
}

/** The gate of the configured judge endpoint: where evaluations queue, and their calls take permits. */
export function judgeGate(env: Env): DurableObjectStub<JudgeGate> {
  return judgeGateStub(env);
}

export function newEvaluationId(): string {
  return `ev_${crypto.randomUUID().replace(/-/g, "")}`;
}
