import { batchEnded, batchReport, findBatch } from "../db/batches";
import { evaluationById, markEnded, writeOutcome } from "../db/evaluations";
import { database } from "../db/database";
import type { EndStatus, EvaluationInput, JudgeFeedback, Outcome, Usage } from "../model/evaluation";
import { judgeGateStub } from "../platform/stubs";
import { enqueueWebhook } from "../webhooks/enqueue";
import type { FinalGrade } from "../teacher/final-grade";
import { finalGrades } from "./final-grades";
import { passBackGrades } from "./lti-passback";

export interface Final {
  status: EndStatus;
  error: string | null;
  outcome: Outcome;
  usage: Usage;
  now: number;
  /**
   * Never played: its input cannot start a tournament. Only the status and the error are written, and
   * the answers stay as posted: writing them back as an outcome could fail on the very input that
   * could not start (ids that read back alike).
   */
  unplayed?: boolean;
  /** The feedback calls that ended (with `feedback: "judge"`): written with the answers. */
  feedback?: JudgeFeedback[];
}

/**
 * What happens when an evaluation ends, however it ends (its tournament finished or failed, it was
 * cancelled, it could not start): the outcome goes to D1 with the batch's counter in one transaction,
 * then its webhook and, if it was the batch's last question, the batch's are queued. Every step can be
 * run again (the alarm retries a finish that died half-way): the outcome's rows are replaced, the
 * counter moves only once, and the webhook queue keeps one message per event.
 */
export async function finishEvaluation(env: Env, input: EvaluationInput, final: Final): Promise<void> {
  const db = database(env.DB);
  // D1 first: if that write fails the caller throws, is retried, and writes the same outcome again
  if (final.unplayed)
    await markEnded(db, input, {
      status: final.status === "completed" ? "failed" : final.status,
      error: final.error ?? "",
      now: final.now,
    });
  else await writeOutcome(db, input, final);
  if (input.webhookUrl && final.status !== "cancelled") {
    const finals = final.status === "completed" ? await finalGradesOf(env, input) : new Map<string, FinalGrade>();
    await enqueueWebhook(env, {
      tenant: input.tenant,
      url: input.webhookUrl,
      type: final.status === "completed" ? "evaluation.completed" : "evaluation.failed",
      subject: input.id,
      data: {
        id: input.id,
        status: final.status,
        champion: final.outcome.champion,
        answers: final.outcome.answers.map((a) => ({
          id: a.id,
          score: a.score,
          rank: a.rank,
          eliminatedInRound: a.eliminatedInRound,
          ...(finals.get(a.id) ?? { finalScore: null, finalFrom: null }),
        })),
        usage: final.usage,
        ...(final.error ? { error: final.error } : {}),
        completedAt: new Date(final.now).toISOString(),
      },
    });
  }
  if (input.batchId) await batchMayBeDone(env, input.batchId);
  // a collection released automatically is released now: an LTI course's gradebook gets its grades
  if (final.status === "completed" && !final.unplayed) {
    const row = await evaluationById(db, input.id);
    if (row) await passBackGrades(env, row);
  }
}

/** Each answer's final grade as it stands at completion (the judge's, or a batch's calibration). */
async function finalGradesOf(env: Env, input: EvaluationInput): Promise<Map<string, FinalGrade>> {
  const { answers } = await finalGrades(env, {
    ...input,
    status: "completed",
    gradeStep: input.gradeStep ?? null,
    batchId: input.batchId ?? null,
  });
  return new Map(answers.map((a) => [a.id, { finalScore: a.finalScore, finalFrom: a.finalFrom }]));
}

/**
 * The batch's webhook, once its last question has ended. Its counters say so in one read; only then is
 * the report built (it reads every question), so a 1,000-question batch builds it once, not a
 * thousand times. Two questions that end together may both queue it: the queue keeps one.
 */
async function batchMayBeDone(env: Env, batchId: string): Promise<void> {
  const db = database(env.DB);
  const ended = await batchEnded(db, batchId);
  if (!ended?.webhookUrl || ended.ended < ended.total) return;
  const batch = await findBatch(db, ended.tenant, batchId);
  if (!batch) return;
  const report = await batchReport(db, env.DB, batch);
  await enqueueWebhook(env, { tenant: batch.tenant, url: ended.webhookUrl, type: "batch.completed", subject: batch.id, data: report });
}

/**
 * Tells the judge's gate an evaluation has ended, so its place and its waiting requests go to others;
 * should that fail, the gate's own alarm asks the evaluation again.
 */
export async function leaveGate(env: Env, gateKey: string | undefined, evaluationId: string): Promise<void> {
  if (!gateKey) return;
  await judgeGateStub(env, gateKey)
    .forget(evaluationId)
    .catch((err: unknown) => console.error("could not tell the judge gate an evaluation ended", evaluationId, err));
}
