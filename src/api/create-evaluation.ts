import { defaults } from "../config";
import { randomSeed } from "../core/random";
import { database, deleteEvaluation, insertEvaluation } from "../db/evaluations";
import type { AppEnv } from "../env";
import type { EvaluationInput } from "../evaluation";
import type { EvaluationBody } from "./schemas";

export type Created = { ok: true; id: string } | { ok: false; status: 503; detail: string };

/**
 * Saves a validated evaluation and starts its Durable Object: the one way an evaluation comes to be,
 * whether a client posted it or a collection closed. On failure nothing stays half-written.
 */
export async function createEvaluation(env: AppEnv, tenant: string, b: EvaluationBody, id = newEvaluationId()): Promise<Created> {
  if (!env.JUDGE_BASE_URL) return { ok: false, status: 503, detail: "no judge is configured: set JUDGE_BASE_URL" };
  const input: EvaluationInput = {
    id,
    tenant,
    question: b.question,
    reference: b.reference ?? null,
    maxScore: b.maxScore,
    template: b.template,
    method: b.method,
    debias: b.debias,
    seed: b.seed ?? randomSeed(),
    judge: { model: b.judge?.model ?? null, temperature: b.judge?.temperature ?? defaults.temperature },
    answers: b.answers,
    createdAt: Date.now(),
  };
  const db = database(env.DB);
  await insertEvaluation(db, input, { webhookUrl: b.webhook?.url ?? null, metadata: b.metadata ?? null });
  try {
    await env.TOURNAMENT.get(env.TOURNAMENT.idFromName(input.id)).start(input);
  } catch (err) {
    await deleteEvaluation(db, input.id);
    console.error("could not start the tournament", input.id, err);
    return { ok: false, status: 503, detail: "the evaluation could not be started; nothing was saved, try again" };
  }
  return { ok: true, id: input.id };
}

export function newEvaluationId(): string {
  return `ev_${crypto.randomUUID().replace(/-/g, "")}`;
}
