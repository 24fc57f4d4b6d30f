import type { Tie } from "../contract/names";
import { and, asc, eq, sql } from "drizzle-orm";
import type { DiagnosedCall, DiagnosedMatch } from "../core/diagnostics";
import type { BatchItem } from "drizzle-orm/batch";
import { batchProgress, examTotals, type ExamAnswer, type ExamMatch } from "../model/exam";
import type { EvaluationInput, Status } from "../model/evaluation";
import { evaluationInserts } from "./evaluations";
import type { Db } from "./database";
import * as schema from "./schema";

export type BatchRow = typeof schema.batches.$inferSelect;

/** The batch and every one of its evaluations with their answers, in one transaction: all or nothing. */
export async function insertBatch(
  db: Db,
  batch: { id: string; tenant: string; webhookUrl: string | null; metadata: unknown; retentionDays: number | null; createdAt: number },
  inputs: { input: EvaluationInput; metadata: unknown }[],
): Promise<void> {
  const statements: BatchItem<"sqlite">[] = [
    db.insert(schema.batches).values({ ...batch, total: inputs.length }),
    // a question's own webhook is not sent for batch members: the batch has one
    ...inputs.flatMap(({ input, metadata }) => evaluationInserts(db, input, { webhookUrl: null, metadata })),
  ];
  await db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
}

export async function findBatch(db: Db, tenant: string, id: string): Promise<BatchRow | null> {
  return (await db.query.batches.findFirst({ where: and(eq(schema.batches.id, id), eq(schema.batches.tenant, tenant)) })) ?? null;
}

export async function batchEvaluations(db: Db, batchId: string): Promise<{ id: string; status: Status }[]> {
  return db
    .select({ id: schema.evaluations.id, status: schema.evaluations.status })
    .from(schema.evaluations)
    .where(eq(schema.evaluations.batchId, batchId))
    .orderBy(asc(schema.evaluations.batchIndex));
}

/** Fails every still-queued question of a batch that could not be queued to run, and counts them. */
export async function markBatchNotStarted(db: Db, batchId: string, now: number): Promise<void> {
  const { batches, evaluations } = schema;
  const queued = and(eq(evaluations.batchId, batchId), eq(evaluations.status, "queued"));
  await db.batch([
    db
      .update(batches)
      .set({ failed: sql`${batches.failed} + (SELECT COUNT(*) FROM ${evaluations} WHERE ${queued})` })
      .where(eq(batches.id, batchId)),
    db
      .update(evaluations)
      .set({ status: "failed", error: "the evaluation could not be started", updatedAt: now, completedAt: now })
      .where(queued),
  ]);
}

/** How many of a batch's questions have ended, read from its counters (one row). */
export async function batchEnded(
  db: Db,
  batchId: string,
): Promise<{ total: number; ended: number; webhookUrl: string | null; tenant: string } | null> {
  const row = await db.query.batches.findFirst({ where: eq(schema.batches.id, batchId) });
  return row
    ? { total: row.total, ended: row.completed + row.failed + row.cancelled, webhookUrl: row.webhookUrl, tenant: row.tenant }
    : null;
}

export async function batchAnswers(d1: D1Database, batchId: string): Promise<ExamAnswer[]> {
  const { results } = await d1
    .prepare(
      `SELECT a.examinee AS examinee, a.score AS score FROM answers a JOIN evaluations e ON e.id = a.evaluation_id
       WHERE e.batch_id = ? AND e.status = 'completed' AND a.examinee IS NOT NULL`,
    )
    .bind(batchId)
    .all<ExamAnswer>();
  return results;
}

export async function batchMatches(d1: D1Database, batchId: string): Promise<ExamMatch[]> {
  const { results } = await d1
    .prepare(
      `SELECT e.batch_index AS question, aa.examinee AS examineeA, ab.examinee AS examineeB, m.score_a AS scoreA, m.score_b AS scoreB
       FROM matches m
       JOIN evaluations e ON e.id = m.evaluation_id
       JOIN answers aa ON aa.evaluation_id = m.evaluation_id AND aa.answer_id = m.a
       JOIN answers ab ON ab.evaluation_id = m.evaluation_id AND ab.answer_id = m.b
       WHERE e.batch_id = ? AND e.status = 'completed'
       ORDER BY e.batch_index, m.idx`,
    )
    .bind(batchId)
    .all<ExamMatch>();
  return results;
}

/** A batch as the API shows it (and its webhook carries): progress, its questions, and exam scores once done. */
export async function batchReport(db: Db, d1: D1Database, batch: BatchRow) {
  const evaluations = await batchEvaluations(db, batch.id);
  const progress = batchProgress(batch.total, batch);
  const finished = progress.status !== "running";
  const exam = finished ? examTotals(await batchAnswers(d1, batch.id)) : [];
  return {
    id: batch.id,
    status: progress.status,
    progress: { done: progress.done, total: progress.total, failed: progress.failed, cancelled: progress.cancelled },
    evaluations: evaluations.map((e) => e.id),
    ...(finished && exam.length > 0 ? { examLevel: exam } : {}),
    metadata: batch.metadata ?? undefined,
    createdAt: new Date(batch.createdAt).toISOString(),
  };
}

/**
 * Every match of the batch's ended questions with its calls and its answers' lengths (characters, as
 * SQLite's length() counts them), for the batch's pooled judge diagnostics (src/core/diagnostics.ts).
 */
export async function batchDiagnosedMatches(d1: D1Database, batchId: string): Promise<DiagnosedMatch[]> {
  const [matchRows, callRows] = await d1.batch<Record<string, unknown>>([
    d1
      .prepare(
        `SELECT m.evaluation_id AS evaluation, m.idx AS idx, m.a AS a, m.b AS b, m.score_a AS scoreA, m.score_b AS scoreB,
                m.tie AS tie, m.extra AS extra, length(aa.text) AS lengthA, length(ab.text) AS lengthB
         FROM matches m
         JOIN evaluations e ON e.id = m.evaluation_id
         JOIN answers aa ON aa.evaluation_id = m.evaluation_id AND aa.answer_id = m.a
         LEFT JOIN answers ab ON ab.evaluation_id = m.evaluation_id AND ab.answer_id = m.b
         WHERE e.batch_id = ?`,
      )
      .bind(batchId),
    d1
      .prepare(
        `SELECT m.evaluation_id AS evaluation, m.idx AS idx, c.value ->> '$.order' AS "order", c.value ->> '$.scores' AS scores,
                c.value ->> '$.expected' AS expected, c.value ->> '$.parseRetried' AS parseRetried
         FROM matches m JOIN evaluations e ON e.id = m.evaluation_id, json_each(m.calls) c
         WHERE e.batch_id = ? ORDER BY m.evaluation_id, m.idx, c.key`,
      )
      .bind(batchId),
  ]);
  const calls = new Map<string, DiagnosedCall[]>();
  for (const c of callRows.results) {
    const key = `${c.evaluation}/${c.idx}`;
    const call: DiagnosedCall = {
      order: JSON.parse(String(c.order)),
      scores: JSON.parse(String(c.scores)),
      expected: c.expected === null ? null : JSON.parse(String(c.expected)),
      parseRetried: Boolean(c.parseRetried),
    };
    calls.set(key, [...(calls.get(key) ?? []), call]);
  }
  return matchRows.results.map((m) => ({
    a: String(m.a),
    b: m.b === null ? null : String(m.b),
    scoreA: m.scoreA as number | null,
    scoreB: m.scoreB as number | null,
    ...(m.tie ? { tie: m.tie as Tie } : {}),
    extra: Boolean(m.extra),
    calls: calls.get(`${m.evaluation}/${m.idx}`) ?? [],
    lengthA: Number(m.lengthA),
    lengthB: m.lengthB === null ? null : Number(m.lengthB),
  }));
}
