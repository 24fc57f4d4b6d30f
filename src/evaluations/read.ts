import { readConfig } from "../platform/config";
import { ENDED } from "../model/evaluation";
import { findEvaluation, listEvaluations, readOutcome, settingsOf, usageOf } from "../db/evaluations";
import { database } from "../db/database";
import type { Template } from "../judge/templates";
import { type ConfidenceSettings, withConfidence } from "./confidence";
import { outcomeDiagnostics } from "./diagnostics";
import { withLengthControl } from "./length-control";
import { notModified, weakTag } from "./etag";
import { joinJson } from "./live-read";
import { withoutTexts } from "./texts";
import { withTeacherGrades } from "./teacher";
import { withReleases } from "./releases";
import { withStudentFeedback } from "./feedback";
import { refusalPace } from "../limits/read-budget";
import { ProblemError } from "../platform/problems";
import { defaultGradeStep } from "../contract";
import { tournamentStub } from "../platform/stubs";
import { reproducibilityOf } from "./reproducibility";
import { rerunOf, rerunReport } from "./rerun";
import { panelReport } from "./panel";

type Row = NonNullable<Awaited<ReturnType<typeof findEvaluation>>>;

/** A tenant's evaluation, or a 404: another tenant's evaluation is indistinguishable from none. */
export async function ownEvaluation(env: Env, tenant: string, id: string): Promise<Row> {
  const row = await findEvaluation(database(env.DB), tenant, id);
  if (!row) throw new ProblemError(404, "no such evaluation");
  return row;
}

/** What a read of `GET /v1/evaluations/:id` answers: its tag, whether it may still change, and its JSON. */
export interface EvaluationRead {
  etag: string;
  /** Queued or running: worth reading again, though not more often than its Retry-After. */
  running: boolean;
  /** The result as JSON text; null when the reader's If-None-Match names `etag` (a 304). */
  json: string | null;
}

/**
 * The evaluation as `GET /v1/evaluations/:id` shows it. An evaluation that has ended is read from D1;
 * one that runs from its Durable Object, which has the live tournament (and, a moment before D1, the
 * final status) and keeps its result serialised per state, so readers share one copy (see
 * Tournament.read); a queued one has no object yet, and asking would make one for nothing.
 * `texts`: false leaves out answers' texts and the judge's words (src/evaluations/texts.ts). `reader`:
 * the API key's id, whose byte budget the object charges for a full read of a running evaluation (a
 * 429 past it); ended and queued evaluations are read from D1 and not charged.
 */
export async function readEvaluation(
  env: Env,
  tenant: string,
  id: string,
  { texts, ifNoneMatch, reader }: { texts: boolean; ifNoneMatch?: string; reader: string },
): Promise<EvaluationRead> {
  const row = await ownEvaluation(env, tenant, id);
  if (ENDED.has(row.status)) return tagged(await endedView(env, row), { texts, ifNoneMatch, running: false });
  // each answer comes with its text as posted (from the object's input or D1's rows): a page reloaded
  // mid-grading, the review page and a CSV have it from the service, not from what a browser kept
  if (row.status === "queued") {
    const empty = { ...headOf(row), status: row.status, champion: null, answers: [], matches: [], usage: usageOf(row) };
    const queued = { ...empty, judgeDiagnostics: outcomeDiagnostics(empty) };
    return tagged(await withTeacherGrades(env, queued), { texts, ifNoneMatch, running: true });
  }
  const live = await tournamentStub(env, row.id)
    .read(texts, ifNoneMatch, reader)
    .catch(() => null);
  if (live && "retryAfterMs" in live) {
    const pace = refusalPace(live.retryAfterMs);
    await new Promise((resolve) => setTimeout(resolve, pace.holdMs));
    throw overBudget(env, id, pace.retryAfterSeconds);
  }
  // a completed evaluation may have grades, which D1 has (it learns of the end before the object does)
  if (live && live.status !== "completed") {
    const running = live.status === "queued" || live.status === "running";
    return { etag: live.etag, running, json: live.json === null ? null : joinJson(headOf(row), live.json) };
  }
  // the object was let go while asked, has no copy, or has just completed: D1 has the outcome by then
  const again = await ownEvaluation(env, tenant, id);
  if (ENDED.has(again.status)) return tagged(await endedView(env, again), { texts, ifNoneMatch, running: false });
  throw new ProblemError(503, "the evaluation could not be read; try again in a moment", { headers: { "retry-after": "1" } });
}

/** The 429 for a reader past its budget: when to come back, and the ways to read that cost less. */
function overBudget(env: Env, id: string, seconds: number): ProblemError {
  const budget = readConfig(env).liveReadBudget;
  const rate = budget ? `${budget.bytesPerSecond} bytes a second (bursts of ${budget.burstBytes})` : "its budget";
  return new ProblemError(
    429,
    `full reads of a running evaluation are limited to ${rate} per API key; retry after ${seconds} s. ` +
      `A read with If-None-Match naming the ETag you have costs nothing while the evaluation is unchanged, ` +
      `?exclude=texts reads less, and GET /v1/evaluations/${id}/events shows it live`,
    { headers: { "retry-after": String(seconds) } },
  );
}

/** A view read from D1, serialised, and tagged by its content: every read builds it, but a 304 sends none of it. */
function tagged<V extends Parameters<typeof withoutTexts>[0]>(
  view: V,
  { texts, ifNoneMatch, running }: { texts: boolean; ifNoneMatch?: string; running: boolean },
): EvaluationRead {
  const json = JSON.stringify(texts ? view : withoutTexts(view));
  const etag = weakTag(json);
  return { etag, running, json: notModified(ifNoneMatch, etag) ? null : json };
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
  return {
    maxScore: row.maxScore,
    template: row.template as Template,
    gradeBoundaries: row.gradeBoundaries ?? [],
    reviewShare: row.reviewShare,
    reviewThreshold: row.reviewThreshold,
  };
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
    ...(settings.tieBreak ? { tieBreak: settings.tieBreak } : {}),
    judge: {
      model: row.judgeModel,
      scoreFrom: row.scoreFrom,
      ...(row.judgePanel ? { panel: row.judgePanel, panelMode: row.judgePanelMode ?? "cycle" } : {}),
    },
    gradeBoundaries: settings.gradeBoundaries,
    extraCalls: settings.extraCalls,
    ...(settings.extraPlacement ? { extraPlacement: settings.extraPlacement } : {}),
    template: row.template,
    maxScore: row.maxScore,
    gradeStep: row.gradeStep ?? defaultGradeStep(row.template, row.maxScore),
    seed: row.seed,
    // the models that answered are read from the calls once the evaluation has ended (endedView)
    reproducibility: reproducibilityOf(row),
    ...(rerunOf(row) ? { rerun: { of: rerunOf(row), matches: null, differing: null } } : {}),
    ...(row.rubric ? { rubric: row.rubric } : {}),
    feedback: row.feedback,
    ...(row.batchId ? { batchId: row.batchId } : {}),
    metadata: row.metadata ?? undefined,
    createdAt: new Date(row.createdAt).toISOString(),
  };
}

/** An ended evaluation as D1 has it, with the teacher's grades and what is released to students. */
async function endedView(env: Env, row: Row) {
  const outcome = await readOutcome(database(env.DB), row);
  const confident = withConfidence(outcome, confidenceSettings(row));
  const rerun = await rerunReport(env, row.tenant, row, outcome);
  const panel = panelReport(row.judgePanel, outcome, row.judgePanelMode ?? "cycle");
  const graded = await withTeacherGrades(env, {
    ...headOf(row),
    reproducibility: reproducibilityOf(row, outcome),
    ...(rerun ? { rerun } : {}),
    ...(panel ? { panel } : {}),
    status: row.status,
    champion: outcome.champion,
    ...confident,
    ...withLengthControl(confident.answers, outcome, { lengthControl: settingsOf(row).lengthControl, maxScore: row.maxScore }),
    usage: usageOf(row),
    judgeDiagnostics: outcomeDiagnostics(outcome),
    ...(row.error ? { error: row.error } : {}),
    completedAt: row.completedAt ? new Date(row.completedAt).toISOString() : undefined,
  });
  return withReleases(env, row, await withStudentFeedback(env, row.feedback, graded));
}
