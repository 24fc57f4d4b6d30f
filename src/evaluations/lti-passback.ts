import { database } from "../db/database";
import type { evaluationById } from "../db/evaluations";
import { feedbackEditsOf, judgeFeedbackOf } from "../db/feedback";
import { linkOf, ltiLearnersOfAnswers, ltiLearnersWithAnswers } from "../db/lti-links";
import { passbackScopes } from "../lti/access-token";
import { gradeStateOf, passbackState } from "../lti/scores";
import { ltiScoresStub } from "../platform/stubs";
import { currentFeedback } from "../teacher/feedback";
import { finalGrades } from "./final-grades";
import { collectionOf, releaseModeOf, releaseTimes } from "./releases";

type EvaluationRow = NonNullable<Awaited<ReturnType<typeof evaluationById>>>;

/**
 * Hands the grades of an evaluation's collection to its passback queue, when LTI placed the collection
 * in a course with a gradebook column: for each learner with an answer, the grade the gradebook should
 * show now (released with its final score and feedback, or not released). The queue posts what
 * changed since it last queued (durable-objects/lti-scores.ts), so this is called after anything that
 * may change a released grade (a release or withdrawal, a teacher's grade or feedback, the grading's
 * end for a collection released automatically), and calling it again changes nothing.
 */
export async function passBackGrades(env: Env, row: EvaluationRow): Promise<void> {
  if (row.status !== "completed") return;
  const collection = await collectionOf(env, row);
  if (!collection) return;
  const db = database(env.DB);
  const link = await linkOf(db, collection.id);
  if (passbackState(link) !== "on" || !link?.lineItemUrl) return;
  const learners = await ltiLearnersWithAnswers(db, collection.id);
  if (learners.length === 0) return;
  const [released, { answers }, judge, edits] = await Promise.all([
    releaseTimes(env, row, releaseModeOf(collection)),
    finalGrades(env, row),
    judgeFeedbackOf(db, row.id),
    feedbackEditsOf(db, row.id),
  ]);
  const feedback = currentFeedback(judge, edits);
  const graded = new Map(answers.map((a) => [a.id, a]));
  const scores = learners.flatMap((l) => {
    const a = l.answerId === null ? undefined : graded.get(l.answerId);
    if (!a) return [];
    const state = gradeStateOf({
      releasedAt: released(a.id),
      finalScore: a.finalScore,
      maxScore: row.maxScore,
      feedback: feedback.get(a.id)?.feedback?.text ?? null,
    });
    return [{ sub: l.sub, answerId: a.id, state }];
  });
  await ltiScoresStub(env, collection.id).sync({
    platformId: link.platformId,
    lineItemUrl: link.lineItemUrl,
    scopes: passbackScopes(link.agsScopes ?? null),
    scores,
  });
}

/**
 * Forgets the scores posted for these answers' learners (a person erased): the queue's copies of their
 * grade and feedback, and their delivery log. What the LMS's gradebook already holds is the LMS's.
 */
export async function forgetLtiScoresOf(env: Env, tenant: string, answerIds: readonly string[]): Promise<void> {
  if (answerIds.length === 0) return;
  const bySub = new Map<string, string[]>();
  for (const l of await ltiLearnersOfAnswers(database(env.DB), tenant, answerIds))
    bySub.set(l.collectionId, [...(bySub.get(l.collectionId) ?? []), l.sub]);
  for (const [collectionId, subs] of bySub) await ltiScoresStub(env, collectionId).forget(subs);
}
