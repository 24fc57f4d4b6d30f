import { defaults } from "../config";
import { randomSeed } from "../core/random";
import type { EvaluationInput } from "../evaluation";
import type { EvaluationBody } from "./schemas";

/** What the Durable Object runs, from a validated body: ids, the seed and judge settings decided here. */
export function evaluationInput(
  b: EvaluationBody,
  tenant: string,
  options: { batch?: { id: string; index: number } | null; now?: number; structuredOutputs?: boolean } = {},
): EvaluationInput {
  const { batch = null, now = Date.now() } = options;
  return {
    id: `ev_${crypto.randomUUID().replace(/-/g, "")}`,
    tenant,
    question: b.question,
    reference: b.reference ?? null,
    maxScore: b.maxScore,
    template: b.template,
    method: b.method,
    debias: b.debias,
    pairing: b.pairing,
    seed: b.seed ?? randomSeed(),
    judge: {
      model: b.judge?.model ?? null,
      temperature: b.judge?.temperature ?? defaults.temperature,
      structuredOutputs: b.judge?.structuredOutputs ?? options.structuredOutputs ?? false,
    },
    webhookUrl: b.webhook?.url ?? null,
    answers: b.answers,
    rubric: b.rubric ?? null,
    batchId: batch?.id ?? null,
    batchIndex: batch?.index ?? null,
    createdAt: now,
  };
}
