import { ENDED } from "../model/evaluation";
import { findEvaluation, listEvaluations, readOutcome, settingsOf, usageOf } from "../db/evaluations";
import { database } from "../db/database";
import type { Template } from "../judge/templates";
import { type ConfidenceSettings, withConfidence } from "./confidence";
import { withTeacherGrades } from "./teacher";
import { ProblemError } from "../platform/problems";
import { tournamentStub } from "../platform/stubs";

type Row = NonNullable<Awaited<ReturnType<typeof findEvaluation>>>;

/** A tenant's evaluation, or a 404: another tenant's evaluation is indistinguishable from none. */
export async function ownEvaluation(env: Env, tenant: string, id: string): Promise<Row> {
  const row = await findEvaluation(database(env.DB), tenant, id);
  if (!row) throw new ProblemError(404, "no such evaluation");
  return row;
}

/**
 * The evaluation as `GET /v1/evaluations/:id` shows it. An evaluation that has ended is read from D1;
 * one that runs from its Durable Object, which has the live tournament (and, a moment before D1, the
 * final status); a queued one has no object yet, and asking would make one for nothing.
 */
export async function readEvaluation(env: Env, tenant: string, id: string) {
  // each answer comes with its text as posted (from the object's input or D1's rows): a page reloaded
  // mid-grading, the review page and a CSV have it from the service, not from what a browser kept
  return withTeacherGrades(env, await evaluationView(env, tenant, id));
}

/** The evaluation as the judge left it, without the teacher's grades. */
async function evaluationView(env: Env, tenant: string, id: string) {
  const row = await ownEvaluation(env, tenant, id);
  if (ENDED.has(row.status)) return endedView(env, row);
  if (row.status === "queued") return { ...headOf(row), status: row.status, champion: null, answers: [], matches: [], usage: usageOf(row) };
  const settings = confidenceSettings(row);
  const live = await tournamentStub(env, row.id)
    .snapshot()
    .catch(() => undefined);
  if (live) {
    return {
      ...headOf(row),
      status: live.status,
      champion: live.outcome.champion,
      ...withConfidence(live.outcome, settings),
      usage: live.usage,
      ...(live.error ? { error: live.error } : {}),
    };
  }
  // the object was let go while asked, or has no copy: it had just ended, and D1 has the outcome by then
  const again = await ownEvaluation(env, tenant, id);
  if (ENDED.has(again.status)) return endedView(env, again);
  throw new ProblemError(503, "the evaluation could not be read; try again in a moment", { headers: { "retry-after": "1" } });
}

/** A page of the tenant's evaluations, newest first, as summaries (questions and answers can be large). */
export async function evaluationPage(env: Env, tenant: string, after: { createdAt: number; id: string } | null, limit: number) {
  const rows = await listEvaluations(database(env.DB), tenant, after, limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    data: page.map((r) => ({
      id: r.id,
      status: r.status,
      method: r.method,
      champion: r.champion,
      metadata: r.metadata ?? undefined,
      createdAt: new Date(r.createdAt).toISOString(),
      completedAt: r.completedAt ? new Date(r.completedAt).toISOString() : undefined,
    })),
    next: rows.length > limit && last ? { createdAt: last.createdAt, id: last.id } : null,
  };
}

function confidenceSettings(row: Row): ConfidenceSettings {
  return { maxScore: row.maxScore, template: row.template as Template, gradeBoundaries: row.gradeBoundaries ?? [] };
}

function headOf(row: Row) {
  const settings = settingsOf(row);
  return {
    id: row.id,
    question: row.question,
    reference: row.reference,
    method: row.method,
    debias: settings.debias,
    pairing: row.pairing,
    ...(settings.byes ? { byes: settings.byes } : {}),
    judge: { model: row.judgeModel, scoreFrom: row.scoreFrom },
    gradeBoundaries: settings.gradeBoundaries,
    extraCalls: settings.extraCalls,
    template: row.template,
    maxScore: row.maxScore,
    seed: row.seed,
    ...(row.rubric ? { rubric: row.rubric } : {}),
    ...(row.batchId ? { batchId: row.batchId } : {}),
    metadata: row.metadata ?? undefined,
    createdAt: new Date(row.createdAt).toISOString(),
  };
}

async function endedView(env: Env, row: Row) {
  const outcome = await readOutcome(database(env.DB), row);
  return {
    ...headOf(row),
    status: row.status,
    champion: outcome.champion,
    ...withConfidence(outcome, confidenceSettings(row)),
    usage: usageOf(row),
    ...(row.error ? { error: row.error } : {}),
    completedAt: row.completedAt ? new Date(row.completedAt).toISOString() : undefined,
  };
}
