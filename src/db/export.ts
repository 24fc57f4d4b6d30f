/**
 * The reads of an export (GET /v1/tenant/export, /v1/subjects/export): the tenant's evaluations and
 * collections page by page with a cursor, then each one's rows in one D1 batch. D1 runs a batch as one
 * transaction, so each item is read at one moment: with its tombstone if an erasure has begun (an
 * erasure writes its tombstone before it deletes anything), or whole. An export is never handed rows of
 * an item half erased.
 */

export interface Position {
  createdAt: number;
  id: string;
}

/**
 * Where a page of ids is read from: the table, and the answers that name a person in it (an
 * evaluation's answers by examinee, a collection's by the name given).
 */
const PAGED = {
  evaluations: { table: "evaluations", answers: "answers", owner: "evaluation_id", person: "examinee" },
  collections: { table: "collections", answers: "collection_answers", owner: "collection_id", person: "name" },
} as const;

/** The next `limit` ids of the tenant's evaluations or collections after `after`, oldest first; with `person`, only those with an answer of theirs. */
async function idsAfter(
  d1: D1Database,
  kind: keyof typeof PAGED,
  tenant: string,
  after: Position | null,
  limit: number,
  person: string | null,
): Promise<Position[]> {
  const { table, answers, owner, person: column } = PAGED[kind];
  const rows = await d1
    .prepare(
      `SELECT id, created_at AS createdAt FROM ${table} t
       WHERE tenant = ?1 AND (created_at > ?2 OR (created_at = ?2 AND id > ?3))
         AND (?4 IS NULL OR EXISTS (SELECT 1 FROM ${answers} a WHERE a.${owner} = t.id AND a.${column} = ?4))
       ORDER BY created_at, id LIMIT ?5`,
    )
    .bind(tenant, after?.createdAt ?? -1, after?.id ?? "", person, limit)
    .all<Position>();
  return rows.results;
}

/** The next `limit` ids of the tenant's evaluations after `after`, oldest first; with `examinee`, only those with an answer of theirs. */
export const evaluationsAfter = (d1: D1Database, tenant: string, after: Position | null, limit: number, examinee: string | null) =>
  idsAfter(d1, "evaluations", tenant, after, limit, examinee);

/** The next `limit` ids of the tenant's collections after `after`, oldest first; with `name`, only those with an answer under it. */
export const collectionsAfter = (d1: D1Database, tenant: string, after: Position | null, limit: number, name: string | null) =>
  idsAfter(d1, "collections", tenant, after, limit, name);

export interface EvaluationRow {
  id: string;
  status: string;
  question: string;
  reference: string | null;
  maxScore: number;
  method: string;
  template: string;
  batchId: string | null;
  metadata: string | null;
  feedbackMode: "none" | "judge";
  createdAt: number;
  completedAt: number | null;
}

export interface AnswerRow {
  answerId: string;
  text: string;
  examinee: string | null;
  score: number | null;
  rank: number | null;
  feedback: string | null;
  feedbackError: string | null;
  feedbackAt: number | null;
}

/** One evaluation as it is at one moment, or null if it is gone or its erasure has begun. */
export interface EvaluationSnapshot {
  evaluation: EvaluationRow;
  answers: AnswerRow[];
  /** Each answer's current teacher grade (its latest change, if not a withdrawal). */
  grades: { answerId: string; score: number; note: string | null; gradedAt: number }[];
  /** Every teacher edit of a feedback, oldest first. */
  edits: { answerId: string; text: string; editedAt: number }[];
}

/** One evaluation of the tenant, read in one transaction; with `examinee`, only that person's answers. */
export async function evaluationSnapshot(
  d1: D1Database,
  tenant: string,
  id: string,
  examinee: string | null,
): Promise<EvaluationSnapshot | null> {
  const mine = "(?2 IS NULL OR answer_id IN (SELECT answer_id FROM answers WHERE evaluation_id = ?1 AND examinee = ?2))";
  const [tombstone, evaluation, answers, grades, edits] = await d1.batch<Record<string, unknown>>([
    d1.prepare("SELECT 1 AS erased FROM erasures WHERE id = ?").bind(id),
    d1
      .prepare(
        `SELECT id, status, question, reference, max_score AS maxScore, method, template, batch_id AS batchId, metadata,
           feedback AS feedbackMode, created_at AS createdAt, completed_at AS completedAt
         FROM evaluations WHERE id = ? AND tenant = ?`,
      )
      .bind(id, tenant),
    d1
      .prepare(
        `SELECT answer_id AS answerId, text, examinee, score, rank, feedback, feedback_error AS feedbackError, feedback_at AS feedbackAt
         FROM answers WHERE evaluation_id = ?1 AND (?2 IS NULL OR examinee = ?2) ORDER BY position`,
      )
      .bind(id, examinee),
    d1
      .prepare(
        `SELECT answer_id AS answerId, score, note, graded_at AS gradedAt FROM teacher_grades g
         WHERE evaluation_id = ?1 AND ${mine} AND score IS NOT NULL
           AND seq = (SELECT MAX(u.seq) FROM teacher_grades u WHERE u.evaluation_id = g.evaluation_id AND u.answer_id = g.answer_id)
         ORDER BY answer_id`,
      )
      .bind(id, examinee),
    d1
      .prepare(
        `SELECT answer_id AS answerId, text, edited_at AS editedAt FROM feedback_edits WHERE evaluation_id = ?1 AND ${mine} ORDER BY seq`,
      )
      .bind(id, examinee),
  ]);
  if (tombstone.results.length > 0 || evaluation.results.length === 0) return null;
  return {
    evaluation: evaluation.results[0] as unknown as EvaluationRow,
    answers: answers.results as unknown as AnswerRow[],
    grades: grades.results as unknown as EvaluationSnapshot["grades"],
    edits: edits.results as unknown as EvaluationSnapshot["edits"],
  };
}

/** One collection as it is at one moment, or null if it is gone or its erasure has begun. */
export interface CollectionSnapshot {
  collection: { id: string; status: string; settings: string; evaluationId: string | null; createdAt: number; closedAt: number | null };
  answers: { answerId: string; text: string; name: string | null; createdAt: number }[];
}

/** One collection of the tenant, read in one transaction; with `name`, only the answers under it. */
export async function collectionSnapshot(
  d1: D1Database,
  tenant: string,
  id: string,
  name: string | null,
): Promise<CollectionSnapshot | null> {
  const [tombstone, collection, answers] = await d1.batch<Record<string, unknown>>([
    d1.prepare("SELECT 1 AS erased FROM erasures WHERE id = ?").bind(id),
    d1
      .prepare(
        `SELECT id, status, settings, evaluation_id AS evaluationId, created_at AS createdAt, closed_at AS closedAt
         FROM collections WHERE id = ? AND tenant = ?`,
      )
      .bind(id, tenant),
    d1
      .prepare(
        `SELECT answer_id AS answerId, text, name, created_at AS createdAt FROM collection_answers
         WHERE collection_id = ?1 AND (?2 IS NULL OR name = ?2) ORDER BY position`,
      )
      .bind(id, name),
  ]);
  if (tombstone.results.length > 0 || collection.results.length === 0) return null;
  return {
    collection: collection.results[0] as unknown as CollectionSnapshot["collection"],
    answers: answers.results as unknown as CollectionSnapshot["answers"],
  };
}
