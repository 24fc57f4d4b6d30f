import { defaults } from "../platform/config";
import { usableExtraCalls } from "../core/extra";
import { randomSeed } from "../random/seeded";
import { DEFAULT_BYE_RULE, DEFAULT_EXTRA_PLACEMENT, DEFAULT_TIE_BREAK } from "../core/types";
import type { EvaluationInput } from "../model/evaluation";
import type { EvaluationBody } from "../contract";
import { promptVersion } from "../judge/prompt-version";

/** The one minter of ids: `ev_` evaluations, `ba_` batches, `col_` collections, 32 hex digits each. */
export function newId(prefix: "ev" | "ba" | "col"): string {
  return `${prefix}_${crypto.randomUUID().replace(/-/g, "")}`;
}

/** What the Durable Object runs, from a validated body: ids, the seed and judge settings decided here. */
export function evaluationInput(
  b: EvaluationBody,
  tenant: string,
  options: {
    id?: string;
    batch?: { id: string; index: number } | null;
    now?: number;
    structuredOutputs?: boolean;
    /** JUDGE_MAX_TOKENS now: kept with the evaluation, so a rerun sends what it sent. */
    maxTokens?: number;
  } = {},
): EvaluationInput {
  const { batch = null, now = Date.now() } = options;
  return {
    id: options.id ?? newId("ev"),
    tenant,
    question: b.question,
    reference: b.reference ?? null,
    maxScore: b.maxScore,
    gradeStep: b.gradeStep,
    template: b.template,
    method: b.method,
    debias: b.debias,
    pairing: b.pairing,
    seed: b.seed ?? randomSeed(),
    judge: {
      // a panel of one is a plain judge
      model: b.judge?.model ?? (b.judge?.panel?.length === 1 ? b.judge.panel[0] : null),
      temperature: b.judge?.temperature ?? defaults.temperature,
      structuredOutputs: b.judge?.structuredOutputs ?? options.structuredOutputs ?? false,
      scoreFrom: b.judge?.scoreFrom ?? "auto",
      ...(options.maxTokens !== undefined ? { maxTokens: options.maxTokens } : {}),
      ...(b.judge?.panel && b.judge.panel.length > 1 ? { panel: [...b.judge.panel], panelMode: b.judge.panelMode ?? "cycle" } : {}),
    },
    promptVersion: promptVersion(b.template, { rubric: Boolean(b.rubric), feedback: b.feedback === "judge" }),
    // the paper's odds for who gets the bye (stored evaluations without the field replay "no-repeat")
    byes: DEFAULT_BYE_RULE,
    // a tie nothing split goes to the better record unless asked otherwise (stored evaluations without the field replay "position")
    tieBreak: b.tieBreak ?? DEFAULT_TIE_BREAK,
    // extra calls to the fewest judgments first unless asked otherwise (stored evaluations without the field replay "neighbours")
    extraPlacement: b.extraPlacement ?? DEFAULT_EXTRA_PLACEMENT,
    gradeBoundaries: [...new Set(b.gradeBoundaries ?? [])].sort((x, y) => x - y),
    // what the answers can use, not what was asked: a request of 8 with 2 answers spends nothing
    extraCalls: b.method === "knockout" ? usableExtraCalls(b.answers.length, b.debias, b.extraCalls ?? 0) : 0,
    reviewShare: b.reviewShare,
    reviewThreshold: b.reviewThreshold ?? null,
    webhookUrl: b.webhook?.url ?? null,
    answers: b.answers,
    rubric: b.rubric ?? null,
    ...(b.lengthControl ? { lengthControl: true } : {}),
    ...(b.feedback === "judge" ? { feedback: "judge" as const } : {}),
    batchId: batch?.id ?? null,
    batchIndex: batch?.index ?? null,
    createdAt: now,
  };
}
