import type { EvaluationInput, Outcome, Status, Usage } from "../model/evaluation";
import { scoreStep } from "../judge/expected";
import { withTeacher } from "../teacher/view";
import { defaultGradeStep } from "../contract";
import type { Counters } from "./played";
import { withConfidence } from "./confidence";
import { outcomeDiagnostics } from "./diagnostics";
import { withLengthControl } from "./length-control";

/**
 * A running evaluation as `GET /v1/evaluations/:id` reads it from its Durable Object. The object keeps
 * one serialised copy per state (see `stateVersion`) and hands it to every reader, so a hundred polls
 * between two judge results cost one replay and one JSON.stringify, not a hundred: the object is
 * single-threaded, and what it spends on readers its tournament waits for. Pure.
 */

/**
 * What identifies what the object would show: the status, the results recorded and the counters (a
 * retry or a parse failure changes `usage` without a result). The same state reads the same after a
 * restart, since the view is replayed from the stored results.
 */
export function stateVersion(id: string, status: Status, results: number, counters: Counters, feedbacks = 0): string {
  const c = counters;
  return `${id}/${status}/${results}/${feedbacks}/${c.retries}.${c.parseFailures}.${c.promptTokens}.${c.completionTokens}.${c.sharedPrefixTokens}`;
}

/**
 * Everything of the result but its head (which D1 has): status, champion, answers with their
 * confidence, matches, usage, error, and the teacher's part, empty: grades are taken only once an
 * evaluation has completed, and a completed one is read from D1. The final grade is the judge's
 * score so far, on the evaluation's step; nothing is released yet.
 */
export function playedPart(input: EvaluationInput, played: { status: Status; error: string | null; outcome: Outcome; usage: Usage }) {
  const confident = withConfidence(played.outcome, {
    maxScore: input.maxScore,
    template: input.template,
    gradeBoundaries: input.gradeBoundaries ?? [],
    reviewShare: input.reviewShare,
    reviewThreshold: input.reviewThreshold,
  });
  const controlled = withLengthControl(confident.answers, played.outcome, input);
  const part = {
    status: played.status,
    champion: played.outcome.champion,
    ...confident,
    ...controlled,
    usage: played.usage,
    judgeDiagnostics: outcomeDiagnostics(played.outcome),
    ...(played.error ? { error: played.error } : {}),
  };
  const teacher = withTeacher(part.answers, {
    grades: new Map(),
    fitOn: [],
    scope: input.batchId ? "batch" : "evaluation",
    scale: { maxScore: input.maxScore, step: scoreStep(input.template) },
    gradeStep: input.gradeStep ?? defaultGradeStep(input.template, input.maxScore),
  });
  // nothing is released before the evaluation completes
  return { ...part, ...teacher, answers: teacher.answers.map((a) => ({ ...a, releasedAt: null })) };
}

/** `{...head, ...part}` from the head and the part's JSON text, without parsing the (large) part again. */
export function joinJson(head: object, partJson: string): string {
  const front = JSON.stringify(head);
  if (front === "{}") return partJson;
  if (partJson === "{}") return front;
  return `${front.slice(0, -1)},${partJson.slice(1)}`;
}
