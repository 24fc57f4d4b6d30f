import { type CollectionBody, maxAnswersFor } from "../contract";
import { type CollectionRow, type CollectionSettings, collectionById, deleteCollection, insertCollection } from "../db/collections";
import { database } from "../db/database";
import { newId } from "./input";
import { ProblemError } from "../platform/problems";
import { collectionStub } from "../platform/stubs";
import { newToken } from "../platform/tokens";

/**
 * Makes a collection of a checked request: its row, then its Durable Object opened (which closes it at
 * its deadline). If the object cannot be opened the row is undone and a 503 thrown: nothing was saved.
 * The one way a collection is made, by POST /v1/collections and by LTI deep linking.
 */
export async function openCollection(env: Env, tenant: string, b: CollectionBody): Promise<CollectionRow> {
  const id = newId("col");
  const settings: CollectionSettings = {
    question: b.question,
    reference: b.reference ?? null,
    maxScore: b.maxScore,
    method: b.method,
    template: b.template,
    debias: b.debias,
    gradeStep: b.gradeStep,
    reviewShare: b.reviewShare,
    reviewThreshold: b.reviewThreshold,
    release: b.release,
    showRank: b.showRank,
    feedback: b.feedback,
    ...(b.rubric ? { rubric: b.rubric } : {}),
  };
  const deadline = b.closing.deadline ? Date.parse(b.closing.deadline) : null;
  const row = {
    id,
    tenant,
    publicToken: newToken("pc_"),
    settings,
    allowedOrigins: b.allowedOrigins,
    deadline,
    maxAnswers: b.closing.maxAnswers ?? null,
    webhookUrl: b.webhook?.url ?? null,
    retentionDays: b.retentionDays ?? null,
    status: "open" as const,
    createdAt: Date.now(),
  };
  const db = database(env.DB);
  await insertCollection(db, row);
  try {
    await collectionStub(env, id).open({
      id,
      tenant,
      deadline,
      // without a rule it closes itself (and grades) when its method's evaluation is full
      maxAnswers: row.maxAnswers ?? maxAnswersFor(b.method),
    });
  } catch (err) {
    await deleteCollection(db, id);
    console.error("could not open the collection", id, err);
    throw new ProblemError(503, "the collection could not be opened; nothing was saved, try again");
  }
  return (await collectionById(db, id))!;
}
