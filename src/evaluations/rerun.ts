import { readConfig } from "../platform/config";
import { findEvaluation, loadInput, readOutcome } from "../db/evaluations";
import { database } from "../db/database";
import { differingMatches } from "../core/rerun";
import type { EvaluationInput, Outcome } from "../model/evaluation";
import { unservedJudge } from "../judge/pool";
import { promptVersion } from "../judge/prompt-version";
import { ProblemError } from "../platform/problems";
import { queueEvaluation, requireJudge } from "./create";
import { newId } from "./input";
import { ERASED_ANSWER } from "./subject-erasure";

type Row = NonNullable<Awaited<ReturnType<typeof findEvaluation>>>;

/**
 * `POST /v1/evaluations/:id/rerun`: a new evaluation with the original's settings (its seed, and so
 * every call's sampling seed, its judge settings and `max_tokens`) and answers, queued as any other,
 * its metadata the original's plus `rerunOf`, its retention the original's own. Not copied: the webhook (a receiver would take the rerun
 * for a new grading) and the batch (the rerun stands alone). An original whose answers were erased
 * cannot be replayed (its texts are gone), nor one whose judge the pool no longer serves (a 409, not a
 * rerun that fails at its start).
 */
export async function rerunEvaluation(env: Env, tenant: string, id: string): Promise<{ id: string }> {
  const db = database(env.DB);
  const row = await findEvaluation(db, tenant, id);
  if (!row) throw new ProblemError(404, "no such evaluation");
  const config = readConfig(env);
  requireJudge(config);
  const original = await loadInput(db, id);
  if (!original) throw new ProblemError(404, "no such evaluation");
  if (original.answers.some((a) => a.id.startsWith(ERASED_ANSWER)))
    throw new ProblemError(409, "this evaluation's answers were erased: it cannot be rerun");
  // the same judge or none: a rerun asked of another model would count its differences as the judge's
  const unserved = unservedJudge(config.pool, { model: original.judge.model ?? undefined, panel: original.judge.panel });
  if (unserved)
    throw new ProblemError(
      409,
      `this evaluation was graded by ${unserved.model}, which no judge endpoint serves now (the pool serves ${config.pool.models.join(", ")}): it cannot be rerun`,
    );
  const input = rerunInput(original, { id: newId("ev"), now: Date.now(), maxTokens: config.judge.maxTokens });
  const metadata = { ...(isRecord(row.metadata) ? row.metadata : {}), rerunOf: id };
  // kept no longer than the original: its own retention, when it named one, goes with the rerun
  await queueEvaluation(env, input, { webhookUrl: null, metadata, retentionDays: row.retentionDays });
  return { id: input.id };
}

/**
 * The rerun's input: the original's, under a new id and time, alone (no batch, no webhook). An original
 * made before `max_tokens` was kept gets today's; the prompts are today's too, so their version is.
 */
export function rerunInput(original: EvaluationInput, made: { id: string; now: number; maxTokens: number }): EvaluationInput {
  return {
    ...original,
    id: made.id,
    createdAt: made.now,
    judge: { ...original.judge, maxTokens: original.judge.maxTokens ?? made.maxTokens },
    promptVersion: promptVersion(original.template, { rubric: original.rubric !== null, feedback: original.feedback === "judge" }),
    webhookUrl: null,
    batchId: null,
    batchIndex: null,
  };
}

/** The id of the evaluation a row reruns (its metadata's `rerunOf`), or null. */
export function rerunOf(row: Pick<Row, "metadata">): string | null {
  return isRecord(row.metadata) && typeof row.metadata.rerunOf === "string" ? row.metadata.rerunOf : null;
}

/**
 * A rerun's report: against its original (the tenant's own), once both completed; nulls until then, or
 * when the original is gone.
 */
export async function rerunReport(env: Env, tenant: string, row: Row, outcome: Outcome | null) {
  const of = rerunOf(row);
  if (of === null) return null;
  const pending = { of, matches: null, differing: null };
  if (row.status !== "completed" || !outcome) return pending;
  const db = database(env.DB);
  const original = await findEvaluation(db, tenant, of);
  if (original?.status !== "completed") return pending;
  return { of, ...differingMatches(await readOutcome(db, original), outcome) };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
