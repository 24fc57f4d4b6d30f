import { and, asc, count, desc, eq, sql } from "drizzle-orm";
import { olderThan } from "./evaluations";
import type { ReleaseMode } from "../contract/names";
import type { Db } from "./database";
import * as schema from "./schema";

export type CollectionRow = typeof schema.collections.$inferSelect;
/** What the evaluation of a collection is made with: the grading part of its request. */
export interface CollectionSettings {
  question: string;
  reference: string | null;
  maxScore: number;
  method: string;
  template: string;
  debias: boolean;
  /** The step final grades are rounded to; absent on collections stored before it (the template's default). */
  gradeStep?: number;
  /** The review rule of its evaluation; absent: the evaluation's defaults. */
  reviewShare?: number;
  reviewThreshold?: number;
  /** How answers reach their students; absent on collections stored before it, which showed grades at once ("auto"). */
  release?: ReleaseMode;
  /** Whether a released receipt shows the answer's rank. */
  showRank?: boolean;
  /** The rubric of its evaluation (method "individual"); absent: none. */
  rubric?: { criteria: { name: string; description?: string; maxScore?: number }[] };
  /** Feedback for the students; absent in collections made before it: "judge", the collections' default. */
  feedback?: "none" | "judge";
}

export async function insertCollection(db: Db, row: typeof schema.collections.$inferInsert): Promise<void> {
  await db.insert(schema.collections).values(row);
}

/** Undoes `insertCollection` when its Durable Object could not be opened. */
export async function deleteCollection(db: Db, id: string): Promise<void> {
  await db.delete(schema.collections).where(eq(schema.collections.id, id));
}

export async function findCollection(db: Db, tenant: string, id: string): Promise<CollectionRow | null> {
  return (
    (await db.query.collections.findFirst({ where: and(eq(schema.collections.id, id), eq(schema.collections.tenant, tenant)) })) ?? null
  );
}

export async function collectionById(db: Db, id: string): Promise<CollectionRow | null> {
  return (await db.query.collections.findFirst({ where: eq(schema.collections.id, id) })) ?? null;
}

export async function collectionByPublicToken(db: Db, token: string): Promise<CollectionRow | null> {
  return (await db.query.collections.findFirst({ where: eq(schema.collections.publicToken, token) })) ?? null;
}

export async function updateCollection(db: Db, id: string, set: Partial<typeof schema.collections.$inferInsert>): Promise<void> {
  await db.update(schema.collections).set(set).where(eq(schema.collections.id, id));
}

/** A closed collection that could not be graded, and why: the owner and every receipt see the reason. */
export async function markNotGraded(db: Db, id: string, reason: string): Promise<void> {
  await updateCollection(db, id, { status: "failed", error: reason });
}

export async function insertSubmission(db: Db, row: typeof schema.collectionAnswers.$inferInsert): Promise<void> {
  await db.insert(schema.collectionAnswers).values(row);
}

export async function submissions(db: Db, collectionId: string) {
  return db
    .select()
    .from(schema.collectionAnswers)
    .where(eq(schema.collectionAnswers.collectionId, collectionId))
    .orderBy(asc(schema.collectionAnswers.position));
}

export async function submissionByReceipt(db: Db, receiptHash: string) {
  return (await db.query.collectionAnswers.findFirst({ where: eq(schema.collectionAnswers.receiptHash, receiptHash) })) ?? null;
}

/** One graded answer's standing in an evaluation, and how many answers were graded. */
export async function gradedAnswer(db: Db, evaluationId: string, answerId: string) {
  const [mine, total] = await db.batch([
    db
      .select()
      .from(schema.answers)
      .where(and(eq(schema.answers.evaluationId, evaluationId), eq(schema.answers.answerId, answerId))),
    db.select({ n: count() }).from(schema.answers).where(eq(schema.answers.evaluationId, evaluationId)),
  ]);
  return mine[0] ? { ...mine[0], of: total[0]?.n ?? 0 } : null;
}

/** Scores and ranks of a graded collection's answers, by answer id (for the owner). */
export async function gradedAnswers(db: Db, evaluationId: string) {
  const rows = await db.select().from(schema.answers).where(eq(schema.answers.evaluationId, evaluationId));
  return new Map(rows.map((r) => [r.answerId, r]));
}

/** A page of a tenant's collections, newest first, after `after`; one more than asked says "there is more". */
export async function listCollections(db: Db, tenant: string, after: { createdAt: number; id: string } | null, limit: number) {
  const c = schema.collections;
  const from = olderThan(c, after);
  return db
    .select({
      id: c.id,
      status: c.status,
      settings: c.settings,
      evaluationId: c.evaluationId,
      createdAt: c.createdAt,
      closedAt: c.closedAt,
      answerCount: sql<number>`(SELECT COUNT(*) FROM ${schema.collectionAnswers} WHERE ${schema.collectionAnswers.collectionId} = ${c.id})`,
    })
    .from(c)
    .where(and(eq(c.tenant, tenant), from))
    .orderBy(desc(c.createdAt), desc(c.id))
    .limit(limit);
}
