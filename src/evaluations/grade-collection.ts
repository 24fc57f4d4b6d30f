import { evaluationBody } from "../contract";
import { type CollectionRow, type CollectionSettings, submissions } from "../db/collections";
import { database } from "../db/database";
import { findEvaluation } from "../db/evaluations";
import { fieldErrors, ProblemError } from "../platform/problems";
import { createEvaluation } from "./create";

/** What a collection's closing made of its answers: an evaluation started, a final refusal, or a failure that may pass. */
export type GradingStart =
  | { kind: "started"; evaluationId: string }
  | { kind: "refused"; reason: string }
  | { kind: "transient"; reason: string; cause: string };

/**
 * Creates the evaluation of a closed collection's answers, or says why not and whether trying again may
 * help (`transient`). Its id is derived from the collection's, so a retried alarm finds the one it made
 * instead of making a second. Through the API's own schema, so it gets the same defaults and rules as a POST.
 */
export async function startGrading(env: Env, config: { id: string; tenant: string }, row: CollectionRow): Promise<GradingStart> {
  try {
    const db = database(env.DB);
    const answers = await submissions(db, config.id);
    if (answers.length < 2) return { kind: "refused", reason: `only ${answers.length} answer(s) came in; grading needs at least 2` };
    const evaluationId = `ev_${config.id.replace(/^col_/, "")}`;
    if (await findEvaluation(db, config.tenant, evaluationId)) return { kind: "started", evaluationId };
    const s = row.settings as CollectionSettings;
    // through the API's own schema, so the collection's evaluation gets the same defaults and rules as a POST
    const body = evaluationBody.safeParse({
      question: s.question,
      reference: s.reference ?? undefined,
      maxScore: s.maxScore,
      method: s.method,
      template: s.template,
      debias: s.debias,
      gradeStep: s.gradeStep,
      reviewShare: s.reviewShare,
      reviewThreshold: s.reviewThreshold,
      feedback: s.feedback ?? "judge",
      rubric: s.rubric,
      answers: answers.map((a) => ({ id: a.answerId, text: a.text })),
      webhook: row.webhookUrl ? { url: row.webhookUrl } : undefined,
      metadata: { collectionId: config.id },
    });
    if (!body.success) {
      // stored before today's rules (a webhook URL of 2,100 characters, say): no retry makes it valid
      return {
        kind: "refused",
        reason: `the collection cannot be graded: ${fieldErrors(body.error)
          .map((e) => `${e.field}: ${e.reason}`)
          .join("; ")}`,
      };
    }
    await createEvaluation(env, config.tenant, body.data, { id: evaluationId });
    return { kind: "started", evaluationId };
  } catch (err) {
    // a refusal (a 4xx) is final; anything else (no judge configured, the gate unreachable) may pass
    if (err instanceof ProblemError && err.status < 500)
      return { kind: "refused", reason: `the collection cannot be graded: ${err.detail}` };
    if (err instanceof ProblemError) return { kind: "transient", reason: err.detail, cause: err.detail };
    return { kind: "transient", reason: "the evaluation could not be created", cause: String(err) };
  }
}
