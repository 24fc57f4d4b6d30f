import { type LengthControl, type LengthMatch, lengthControlledScores } from "../core/length-control";
import type { AnswerView, MatchView } from "../model/evaluation";
import { characters } from "./diagnostics";

/**
 * With `lengthControl: true`, what the result adds (src/core/length-control.ts): the fit, and each
 * answer's `rawScore` (its score, unchanged) and `controlledScore` (with the judge's preference for
 * length taken out; the raw score when nothing could be fitted). Computed with the rest of the result
 * from the recorded matches and the answers' texts, so the running object's copy and D1's read agree.
 */
export function lengthControlOf(
  outcome: { answers: readonly Pick<AnswerView, "id" | "score" | "text">[]; matches: readonly MatchView[] },
  maxScore: number,
): { lengthControl: LengthControl; scores: Map<string, { rawScore: number | null; controlledScore: number | null }> } {
  const matches: LengthMatch[] = outcome.matches.flatMap((m) =>
    m.b !== null && m.scoreA !== null && m.scoreB !== null ? [{ a: m.a, b: m.b, scoreA: m.scoreA, scoreB: m.scoreB }] : [],
  );
  const answers = outcome.answers.map((a) => ({ id: a.id, score: a.score, length: characters(a.text ?? "") }));
  const { control, scores } = lengthControlledScores(answers, matches, maxScore);
  return {
    lengthControl: control,
    scores: new Map(outcome.answers.map((a) => [a.id, { rawScore: a.score, controlledScore: scores.get(a.id) ?? a.score }])),
  };
}

/** The answers with their raw and controlled scores, and the fit, when the evaluation asked for them; else as they are. */
export function withLengthControl<A extends { id: string }>(
  answers: A[],
  outcome: Parameters<typeof lengthControlOf>[0],
  settings: { lengthControl?: boolean; maxScore: number },
): { answers: A[]; lengthControl?: LengthControl } {
  if (!settings.lengthControl) return { answers };
  const { lengthControl, scores } = lengthControlOf(outcome, settings.maxScore);
  return { answers: answers.map((a) => ({ ...a, ...scores.get(a.id) })), lengthControl };
}
