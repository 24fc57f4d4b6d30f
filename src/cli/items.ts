import type { MethodName as Method } from "../core/methods";
import type { Template } from "../judge/prompts";
import type { GradedItem } from "../metrics/items";
import type { DatasetQuestion } from "./dataset";
import { variantFields, variantLabel, type ScoreFrom, type Variant } from "./variants";

// Pure glue between the dataset and the service: the request body for a question, and the report's
// items from a finished evaluation.

export interface RunSettings {
  method: Method;
  debias: boolean | "adaptive";
  /** Null or absent: the service's default. */
  scoreFrom?: ScoreFrom | null;
  extraCalls?: Variant["extraCalls"];
  /** Null: translation datasets use the translation prompts, the rest the exam prompts. */
  template: Template | null;
  /** Null: the dataset's max_score (translations: the prompts' 0..100). */
  maxScore: number | null;
  seed: number;
  /** `--panel`: a panel of judges (the service's judge.panel and judge.panelMode); absent: the service's judge. */
  panel?: { models: string[]; mode: "cycle" | "all" } | null;
}

/** How a method is named in reports: "knockout (debiased)", "knockout (no debiasing, logprobs)". Debiasing means nothing pointwise. */
export function methodLabel(s: Pick<RunSettings, "method" | "debias" | "scoreFrom" | "extraCalls">): string {
  return variantLabel(variantOf(s));
}

function variantOf(s: Pick<RunSettings, "method" | "debias" | "scoreFrom" | "extraCalls">): Variant {
  return { spec: s.method, method: s.method, debias: s.debias, scoreFrom: s.scoreFrom ?? null, extraCalls: s.extraCalls ?? null };
}

export function evaluationRequest(q: DatasetQuestion, index: number, s: RunSettings): Record<string, unknown> {
  const template = s.template ?? (q.translation ? "translation" : "exam");
  // the judge grades on the prompt's scale; human scores stay on theirs (correlations do not care)
  const maxScore = s.maxScore ?? (template === "translation" || !(q.maxScore > 0) ? undefined : q.maxScore);
  return {
    question: q.question,
    ...(q.reference !== undefined ? { reference: q.reference } : {}),
    ...(maxScore !== undefined ? { maxScore } : {}),
    template,
    ...withPanel(variantFields(variantOf(s), q.answers.length), s.panel),
    // one seed per question, derived from the run's: a rerun pairs the same answers
    seed: (s.seed + index) % 2 ** 31,
    answers: q.answers.map((a) => ({ id: a.id, text: a.text, ...(a.examinee !== undefined ? { examinee: a.examinee } : {}) })),
    metadata: { questionId: q.questionId },
  };
}

/** The variant's fields with the panel in their `judge` (beside a variant's judge.scoreFrom). */
function withPanel(fields: Record<string, unknown>, panel: RunSettings["panel"]): Record<string, unknown> {
  if (!panel) return fields;
  const judge = (fields.judge ?? {}) as Record<string, unknown>;
  return { ...fields, judge: { ...judge, panel: panel.models, panelMode: panel.mode } };
}

/** What the service returns for an evaluation, as far as the report needs it. */
export interface EvaluationResult {
  status: string;
  method: string;
  answers: { id: string; score: number | null; eliminatedInRound: number | null; scores?: number[] }[];
  usage: { judgeCalls: number; promptTokens: number; completionTokens: number; retries: number; parseFailures: number };
}

/**
 * One item per dataset answer. A failed evaluation's answers have no judge score (counted, not zero).
 * The elimination round and the times graded (its match scores) are only a knockout's: other methods
 * leave them out of the two by-round splits.
 */
export function gradedItems(q: DatasetQuestion, result: EvaluationResult | null): GradedItem[] {
  const byId = new Map((result?.status === "completed" ? result.answers : []).map((a) => [a.id, a]));
  const knockout = result?.method === "knockout";
  return q.answers.map((a) => {
    const graded = byId.get(a.id);
    return {
      questionId: q.questionId,
      answerId: a.id,
      ...(a.examinee !== undefined ? { examinee: a.examinee } : {}),
      judgeScore: graded?.score ?? null,
      humanScore: a.humanScore,
      ...(a.teacherScore !== undefined ? { teacherScore: a.teacherScore } : {}),
      ...(knockout && graded ? { eliminatedInRound: graded.eliminatedInRound } : {}),
      ...(knockout && graded?.scores ? { timesGraded: graded.scores.length } : {}),
    };
  });
}

export interface UsageTotal {
  judgeCalls: number;
  promptTokens: number;
  completionTokens: number;
  retries: number;
  parseFailures: number;
}

export function sumUsage(results: readonly (EvaluationResult | null)[]): UsageTotal {
  const total: UsageTotal = { judgeCalls: 0, promptTokens: 0, completionTokens: 0, retries: 0, parseFailures: 0 };
  for (const r of results) {
    if (!r) continue;
    for (const k of Object.keys(total) as (keyof UsageTotal)[]) total[k] += r.usage[k] ?? 0;
  }
  return total;
}
