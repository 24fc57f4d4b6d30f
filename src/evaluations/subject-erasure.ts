import type { SubjectErased } from "../contract/erasure";
import {
  answersOfPerson,
  deleteLearnerRows,
  deleteSubmission,
  type LtiUser,
  matchesOf,
  scrubAnswerRows,
  submissionsOfLearner,
  submissionsOfPerson,
} from "../db/subject-erasure";
import { tournamentStub, webhookQueueStub } from "../platform/stubs";
import { audit } from "../db/audit";
import { database } from "../db/database";
import { forgetLtiScoresOf } from "./lti-passback";

/** What an erased person's answer id becomes where the others' results still name it (matches, payloads). */
export const ERASED_ANSWER = "(erased)";

/**
 * Erases one person across the tenant's evaluations, batches and collections (POST /v1/subjects/erase):
 * each of their answers is removed (text, examinee, id, grade, feedback, the judge's replies about it)
 * from D1, from its evaluation's object and from the webhook payloads, and each answer they submitted
 * to a collection with its receipt; an LTI learner (`ltiUser`) by their launches' rows, which go too. The other students' results stay as they were decided: nothing is
 * recomputed, and the reply says so. An evaluation still running is cancelled first. Idempotent: asked
 * again, it finds nothing and touches nothing.
 */
export async function eraseSubject(
  env: Env,
  tenant: string,
  subject: { examinee?: string; answerId?: string; ltiUser?: LtiUser },
  by: string,
): Promise<SubjectErased> {
  // an LTI learner's answers are collection answers only, found through their lti_learners rows
  const found = subject.ltiUser === undefined ? await answersOfPerson(env.DB, tenant, subject) : [];
  const submitted =
    subject.examinee !== undefined
      ? await submissionsOfPerson(env.DB, tenant, subject.examinee)
      : subject.ltiUser !== undefined
        ? await submissionsOfLearner(env.DB, tenant, subject.ltiUser)
        : [];
  const touched = new Map<string, Set<string>>();
  const add = (evaluationId: string, answerId: string) => touched.set(evaluationId, (touched.get(evaluationId) ?? new Set()).add(answerId));
  for (const a of found) add(a.evaluationId, a.answerId);
  // a collection's answer was graded under its own id in the collection's evaluation
  for (const s of submitted) if (s.evaluationId) add(s.evaluationId, s.answerId);

  const running = found.filter((a) => a.status === "queued" || a.status === "running").map((a) => a.evaluationId);
  for (const id of new Set(running)) await tournamentStub(env, id).cancel(id);
  // D1's rows are what finds the person again: they go last, so that a request cut off in the middle
  // and asked again finds what is left and does every other step again (each can be done twice)
  const subjects = new Set<string>([...touched.keys(), ...found.flatMap((a) => (a.batchId ? [a.batchId] : []))]);
  const values = [...[...touched.values()].flatMap((ids) => [...ids]), ...(subject.examinee !== undefined ? [subject.examinee] : [])];
  if (subjects.size && values.length) await webhookQueueStub(env, tenant).scrub([...subjects], values, ERASED_ANSWER);
  for (const [evaluationId, answerIds] of touched) {
    for (const answerId of answerIds) {
      const matches = await matchesOf(env.DB, evaluationId, answerId);
      await tournamentStub(env, evaluationId).scrubAnswer(answerId, ERASED_ANSWER, matches);
      await scrubAnswerRows(env.DB, evaluationId, answerId, ERASED_ANSWER);
    }
  }
  // before the submissions go: the learners bound to them are how the scores are found
  await forgetLtiScoresOf(env, tenant, [
    ...new Set([...[...touched.values()].flatMap((ids) => [...ids]), ...submitted.map((s) => s.answerId)]),
  ]);
  for (const s of submitted) await deleteSubmission(env.DB, s.collectionId, s.answerId);
  // the LTI rows name the learner (their sub, their name): they go with the answers
  if (subject.ltiUser !== undefined) await deleteLearnerRows(env.DB, tenant, { user: subject.ltiUser });
  if (subject.examinee !== undefined) await deleteLearnerRows(env.DB, tenant, { name: subject.examinee });

  // who erased someone and when, with how many answers; never whom
  const count = [...touched.values()].reduce((n, ids) => n + ids.size, 0) + submitted.filter((s) => !s.evaluationId).length;
  await audit(database(env.DB), { tenant, who: by, what: "subject.erase", at: Date.now(), detail: { count } });

  const collections = new Map<string, string[]>();
  for (const s of submitted) collections.set(s.collectionId, [...(collections.get(s.collectionId) ?? []), s.answerId]);
  return {
    evaluations: [...touched].map(([id, answers]) => ({ id, answers: [...answers] })),
    collections: [...collections].map(([id, answers]) => ({ id, answers })),
    recomputed: false,
    note: "the answers are removed; the ranks, scores and ratings of the answers that remain are not recomputed",
  };
}
