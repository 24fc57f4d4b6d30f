import { defaults } from "../platform/config";
import { and, asc, desc, eq, getTableColumns, inArray, lt, or, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { EndStatus, EvaluationInput, JudgeFeedback, Outcome, Usage } from "../model/evaluation";
import type { Db } from "./database";
import * as schema from "./schema";
import { callView, matchFlags, matchResult } from "../core/outcome";
import { DEFAULT_REVIEW_SHARE } from "../contract/review-rule";

type EvaluationRow = typeof schema.evaluations.$inferSelect;

// D1 binds at most 100 parameters per statement: multi-row inserts go in chunks below that, counted
// from the table's columns (drizzle binds one per column and row), so a new column cannot overflow it.
const rowsPerInsert = (table: SQLiteTable) => Math.max(1, Math.floor(100 / Object.keys(getTableColumns(table)).length));
function chunks<T>(rows: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

async function runBatch(db: Db, statements: BatchItem<"sqlite">[]): Promise<void> {
  // a D1 batch is one transaction: all of it lands or none of it
  await db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
}

/** The evaluation and its answers, queued, in one transaction. */
export async function insertEvaluation(
  db: Db,
  input: EvaluationInput,
  extra: { webhookUrl: string | null; metadata: unknown; retentionDays?: number | null },
): Promise<void> {
  await runBatch(db, evaluationInserts(db, input, extra));
}

/** The statements that insert one queued evaluation and its answers (a batch runs many in one transaction). */
export function evaluationInserts(
  db: Db,
  input: EvaluationInput,
  extra: { webhookUrl: string | null; metadata: unknown; retentionDays?: number | null },
): BatchItem<"sqlite">[] {
  const { evaluations, answers } = schema;
  const answerRows = input.answers.map((a, position) => ({
    evaluationId: input.id,
    answerId: a.id,
    position,
    text: a.text,
    examinee: a.examinee ?? null,
  }));
  return [
    db.insert(evaluations).values({
      id: input.id,
      tenant: input.tenant,
      status: "queued",
      method: input.method,
      debias: input.debias !== false,
      adaptiveDebias: input.debias === "adaptive",
      pairing: input.pairing,
      byes: input.byes ?? null,
      tieBreak: input.tieBreak ?? null,
      extraPlacement: input.extraPlacement ?? null,
      scoreFrom: input.judge.scoreFrom,
      gradeBoundaries: input.gradeBoundaries?.length ? input.gradeBoundaries : null,
      extraCallBudget: input.extraCalls ?? 0,
      reviewShare: input.reviewShare ?? DEFAULT_REVIEW_SHARE,
      reviewThreshold: input.reviewThreshold ?? null,
      lengthControl: input.lengthControl ?? false,
      template: input.template,
      maxScore: input.maxScore,
      gradeStep: input.gradeStep ?? null,
      seed: input.seed,
      question: input.question,
      reference: input.reference,
      judgeModel: input.judge.model,
      judgeTemperature: input.judge.temperature,
      judgeMaxTokens: input.judge.maxTokens ?? null,
      judgePanel: input.judge.panel ?? null,
      judgePanelMode: input.judge.panel ? (input.judge.panelMode ?? "cycle") : null,
      promptVersion: input.promptVersion ?? null,
      structuredOutputs: input.judge.structuredOutputs,
      webhookUrl: extra.webhookUrl,
      metadata: extra.metadata ?? null,
      retentionDays: extra.retentionDays ?? null,
      rubric: input.rubric,
      feedback: input.feedback ?? "none",
      batchId: input.batchId ?? null,
      batchIndex: input.batchIndex ?? null,
      createdAt: input.createdAt,
      updatedAt: input.createdAt,
    }),
    ...chunks(answerRows, rowsPerInsert(answers)).map((rows) => db.insert(answers).values(rows)),
  ];
}

/** An evaluation's answer rows in the order they were posted. */
const answersOf = (db: Db, id: string) =>
  db.select().from(schema.answers).where(eq(schema.answers.evaluationId, id)).orderBy(asc(schema.answers.position));

/**
 * The input of a queued evaluation, read back from the rows `evaluationInserts` wrote: its Durable
 * Object is only made when the evaluation's turn to run comes (see the JudgeGate's admission), and
 * loads what it runs from here. Null when there is no such evaluation.
 */
export async function loadInput(db: Db, id: string): Promise<EvaluationInput | null> {
  const [rows, answerRows] = await db.batch([db.select().from(schema.evaluations).where(eq(schema.evaluations.id, id)), answersOf(db, id)]);
  const row = rows[0];
  if (!row) return null;
  return {
    id: row.id,
    tenant: row.tenant,
    question: row.question,
    reference: row.reference,
    maxScore: row.maxScore,
    ...(row.gradeStep !== null ? { gradeStep: row.gradeStep } : {}),
    template: row.template as EvaluationInput["template"],
    method: row.method as EvaluationInput["method"],
    ...settingsOf(row),
    seed: row.seed,
    judge: {
      model: row.judgeModel,
      temperature: row.judgeTemperature ?? defaults.temperature,
      structuredOutputs: row.structuredOutputs,
      scoreFrom: row.scoreFrom,
      ...(row.judgeMaxTokens !== null ? { maxTokens: row.judgeMaxTokens } : {}),
      ...(row.judgePanel ? { panel: row.judgePanel, panelMode: row.judgePanelMode ?? "cycle" } : {}),
    },
    ...(row.promptVersion !== null ? { promptVersion: row.promptVersion } : {}),
    webhookUrl: row.webhookUrl,
    answers: answerRows.map((a) =>
      a.examinee !== null ? { id: a.answerId, text: a.text, examinee: a.examinee } : { id: a.answerId, text: a.text },
    ),
    rubric: row.rubric ?? null,
    ...(row.feedback === "judge" ? { feedback: "judge" as const } : {}),
    batchId: row.batchId,
    batchIndex: row.batchIndex,
    createdAt: row.createdAt,
  };
}

/** The settings of issue 13 as the input has them, from their columns (absent where a stored evaluation predates them). */
export function settingsOf(
  row: EvaluationRow,
): Pick<
  EvaluationInput,
  | "debias"
  | "pairing"
  | "byes"
  | "tieBreak"
  | "gradeBoundaries"
  | "extraCalls"
  | "extraPlacement"
  | "reviewShare"
  | "reviewThreshold"
  | "lengthControl"
> {
  return {
    debias: row.adaptiveDebias ? "adaptive" : row.debias,
    pairing: row.pairing,
    ...(row.byes ? { byes: row.byes } : {}),
    ...(row.tieBreak ? { tieBreak: row.tieBreak } : {}),
    gradeBoundaries: row.gradeBoundaries ?? [],
    extraCalls: row.extraCallBudget,
    ...(row.extraPlacement ? { extraPlacement: row.extraPlacement } : {}),
    reviewShare: row.reviewShare,
    reviewThreshold: row.reviewThreshold,
    ...(row.lengthControl ? { lengthControl: true } : {}),
  };
}

/** Undoes `insertEvaluation` when its Durable Object could not be started, so nothing half-made stays. */
export async function deleteEvaluation(db: Db, id: string): Promise<void> {
  await runBatch(db, [
    db.delete(schema.answers).where(eq(schema.answers.evaluationId, id)),
    db.delete(schema.evaluations).where(eq(schema.evaluations.id, id)),
  ]);
}

export async function markRunning(db: Db, id: string, now: number): Promise<void> {
  await db
    .update(schema.evaluations)
    .set({ status: "running", updatedAt: now })
    .where(and(eq(schema.evaluations.id, id), eq(schema.evaluations.status, "queued")));
}

/**
 * Ends an evaluation that never played a call (its input cannot start a tournament): only the status
 * and the reason are written, and the answers stay as posted. Rewriting them as `writeOutcome` does
 * could itself fail on the very input that could not start (ids that read back alike). Only a queued or
 * running row moves, so a final status is never undone.
 */
export async function markEnded(
  db: Db,
  input: Pick<EvaluationInput, "id" | "batchId">,
  end: { status: "failed" | "cancelled"; error: string; now: number },
): Promise<void> {
  await runBatch(db, [
    ...(input.batchId ? [countEnded(db, input.batchId, input.id, end.status)] : []),
    db
      .update(schema.evaluations)
      .set({ status: end.status, error: end.error, updatedAt: end.now, completedAt: end.now })
      .where(and(eq(schema.evaluations.id, input.id), inArray(schema.evaluations.status, ["queued", "running"]))),
  ]);
}

/**
 * The final state of an evaluation, in one transaction. Rows are replaced rather than added, so writing
 * the same outcome again (an alarm retried after a failed write) leaves exactly one copy.
 */
export async function writeOutcome(
  db: Db,
  input: EvaluationInput,
  final: { status: EndStatus; error: string | null; outcome: Outcome; usage: Usage; now: number; feedback?: readonly JudgeFeedback[] },
): Promise<void> {
  const { evaluations, answers, matches } = schema;
  const id = input.id;
  const { sharedPrefixShare: _derived, ...usage } = final.usage; // derived, not stored
  const texts = new Map(input.answers.map((a, i) => [a.id, { text: a.text, position: i, examinee: a.examinee ?? null }]));
  const feedback = new Map((final.feedback ?? []).map((f) => [f.answerId, f]));
  const answerRows = final.outcome.answers.map((a) => ({
    evaluationId: id,
    answerId: a.id,
    position: texts.get(a.id)!.position,
    text: texts.get(a.id)!.text,
    examinee: texts.get(a.id)!.examinee,
    score: a.score,
    scores: a.scores,
    eliminatedInRound: a.eliminatedInRound,
    rank: a.rank,
    strength: a.strength ?? null,
    criteria: a.criteria ?? null,
    feedback: feedback.get(a.id)?.text ?? null,
    feedbackError: feedback.get(a.id)?.error ?? null,
    feedbackAt: feedback.get(a.id)?.at ?? null,
  }));
  const matchRows = final.outcome.matches.map((m, idx) => ({
    evaluationId: id,
    idx,
    ...matchResult(m),
    tie: m.tie ?? null,
    ordersDisagree: m.ordersDisagree ?? null,
    extra: m.extra ?? false,
    // the calls as the API shows them, and nothing else the outcome may carry
    calls: m.calls.map((c) => callView(c, c.raw)),
  }));
  await runBatch(db, [
    // first, while the row still says whether it had ended: a repeated write counts nothing twice
    ...(input.batchId ? [countEnded(db, input.batchId, id, final.status)] : []),
    db
      .update(evaluations)
      .set({
        status: final.status,
        error: final.error,
        champion: final.outcome.champion,
        ...usage,
        updatedAt: final.now,
        completedAt: final.now,
      })
      .where(eq(evaluations.id, id)),
    // The answers' rows were inserted with the evaluation, under the same ids the outcome names: the
    // outcome is written into them (one row written each) rather than deleted and inserted again
    // (three: the delete, the row, its key). A finish run again writes the same values again.
    // The matches (each with its calls) are replaced: a finish run again leaves one copy of each.
    db.delete(matches).where(eq(matches.evaluationId, id)),
    ...chunks(answerRows, rowsPerInsert(answers)).map((rows) =>
      db
        .insert(answers)
        .values(rows)
        .onConflictDoUpdate({ target: [answers.evaluationId, answers.answerId], set: outcomeColumns }),
    ),
    ...chunks(matchRows, rowsPerInsert(matches)).map((rows) => db.insert(matches).values(rows)),
  ]);
}

/** An answer row's columns an outcome writes, each from the row it would have inserted (`excluded`). */
const outcomeColumns = Object.fromEntries(
  (
    [
      "position",
      "text",
      "examinee",
      "score",
      "scores",
      "eliminatedInRound",
      "rank",
      "strength",
      "criteria",
      "feedback",
      "feedbackError",
      "feedbackAt",
    ] as const
  ).map((key) => [key, sql.raw(`excluded."${schema.answers[key].name}"`)]),
);

/**
 * One more of the batch's questions has ended with `status`, counted only if the evaluation had not
 * ended before: the batch's progress is read in O(1) when a question ends, not recounted from its rows.
 */
function countEnded(db: Db, batchId: string, evaluationId: string, status: EndStatus) {
  const { batches, evaluations } = schema;
  const column = batches[status];
  const open = sql`(SELECT ${evaluations.status} FROM ${evaluations} WHERE ${evaluations.id} = ${evaluationId}) IN ('queued', 'running')`;
  return db
    .update(batches)
    .set({ [status]: sql`${column} + 1` })
    .where(and(eq(batches.id, batchId), open));
}

/** A tenant's evaluation, or null: another tenant's evaluation is indistinguishable from none. */
export async function findEvaluation(db: Db, tenant: string, id: string): Promise<EvaluationRow | null> {
  const row = await db.query.evaluations.findFirst({ where: and(eq(schema.evaluations.id, id), eq(schema.evaluations.tenant, tenant)) });
  return row ?? null;
}

/** Any tenant's evaluation: only for callers that hold a token naming it (a receipt, a share link). */
export async function evaluationById(db: Db, id: string): Promise<EvaluationRow | null> {
  return (await db.query.evaluations.findFirst({ where: eq(schema.evaluations.id, id) })) ?? null;
}

/** The stored outcome of a finished evaluation. */
export async function readOutcome(db: Db, row: EvaluationRow): Promise<Outcome> {
  const [answerRows, matchRows] = await db.batch([
    answersOf(db, row.id),
    db.select().from(schema.matches).where(eq(schema.matches.evaluationId, row.id)).orderBy(asc(schema.matches.idx)),
  ]);
  return {
    champion: row.champion,
    answers: answerRows.map((a) => ({
      id: a.answerId,
      score: a.score,
      scores: a.scores ?? [],
      eliminatedInRound: a.eliminatedInRound,
      rank: a.rank ?? answerRows.length,
      ...(a.examinee !== null ? { examinee: a.examinee } : {}),
      text: a.text,
      ...(a.strength !== null ? { strength: a.strength } : {}),
      ...(a.criteria !== null ? { criteria: a.criteria } : {}),
    })),
    matches: matchRows.map((m) => ({
      ...matchResult(m),
      calls: m.calls.map((c) => callView(c, c.raw)),
      ...matchFlags({ tie: m.tie ?? undefined, ordersDisagree: m.ordersDisagree ?? undefined, extra: m.extra }),
    })),
  };
}

export function usageOf(row: EvaluationRow): Usage {
  return {
    judgeCalls: row.judgeCalls,
    promptTokens: row.promptTokens,
    completionTokens: row.completionTokens,
    retries: row.retries,
    parseFailures: row.parseFailures,
    sharedPrefixTokens: row.sharedPrefixTokens,
    sharedPrefixShare: row.promptTokens > 0 ? Math.round((1000 * row.sharedPrefixTokens) / row.promptTokens) / 1000 : 0,
    extraCalls: row.extraCalls,
    callsSaved: row.callsSaved,
    feedbackCalls: row.feedbackCalls,
  };
}

/**
 * The rows after `after` in a newest-first list ordered by (createdAt, id), both descending: the id breaks
 * ties between rows made in the same millisecond, so a page never skips or repeats one.
 */
export function olderThan(columns: { createdAt: SQLiteColumn; id: SQLiteColumn }, after: { createdAt: number; id: string } | null) {
  if (!after) return undefined;
  return or(lt(columns.createdAt, after.createdAt), and(eq(columns.createdAt, after.createdAt), lt(columns.id, after.id)));
}

/** A page of a tenant's evaluations, newest first, starting after `after`; one more than asked says "there is more". */
export async function listEvaluations(db: Db, tenant: string, after: { createdAt: number; id: string } | null, limit: number) {
  const e = schema.evaluations;
  const from = olderThan(e, after);
  // the summary only: questions and answers can be large, and a list is read often
  return db
    .select({
      id: e.id,
      status: e.status,
      method: e.method,
      createdAt: e.createdAt,
      completedAt: e.completedAt,
      champion: e.champion,
      metadata: e.metadata,
    })
    .from(e)
    .where(and(eq(e.tenant, tenant), from))
    .orderBy(desc(e.createdAt), desc(e.id))
    .limit(limit);
}
