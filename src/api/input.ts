import { defaults } from "../config";
import { randomSeed } from "../core/random";
import type { EvaluationInput } from "../evaluation";
import type { EvaluationBody } from "./schemas";

/** What the Durable Object runs, from a validated body: ids, the seed and judge settings decided here. */
export function evaluationInput(b: EvaluationBody, tenant: string, batch: { id: string; index: number } | null = null, now = Date.now()): EvaluationInput {
  return {
    id: `ev_${crypto.randomUUID().replace(/-/g, "")}`,
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
    rubric: b.rubric ?? null,
    batchId: batch?.id ?? null,
    batchIndex: batch?.index ?? null,
    createdAt: now,
  };
}
