import { answerConfidence, type JudgedMatch } from "../core/confidence";
import type { AnswerView, MatchView } from "../core/outcome";
import { scoreStep } from "../judge/expected";
import type { Template } from "../judge/templates";

/** The settings an evaluation's confidence is read with. */
export interface ConfidenceSettings {
  maxScore: number;
  template: Template;
  gradeBoundaries: readonly number[];
}

/**
 * The answers and matches as `GET /v1/evaluations/:id` shows them: each answer with `judgments`, its
 * 95% `interval` and `review` (src/core/confidence.ts), computed from the recorded matches whenever the
 * evaluation is read, so nothing derived is stored beside them; an extra match's `round` is "extra".
 */
export function withConfidence(outcome: { answers: AnswerView[]; matches: MatchView[] }, settings: ConfidenceSettings) {
  const ids = outcome.answers.map((a) => a.id);
  const confidence =
    ids.length === 0
      ? new Map()
      : answerConfidence(ids, outcome.matches.map(judgedMatch), {
          maxScore: settings.maxScore,
          step: scoreStep(settings.template),
          gradeBoundaries: settings.gradeBoundaries,
        });
  return {
    answers: outcome.answers.map((a) => {
      const c = confidence.get(a.id);
      return { ...a, judgments: c?.judgments ?? 0, interval: c?.interval ?? null, review: c?.review ?? null };
    }),
    matches: outcome.matches.map(({ extra, ...m }) => (extra ? { ...m, round: "extra" as const } : m)),
  };
}

function judgedMatch(m: MatchView): JudgedMatch {
  return { a: m.a, b: m.b, calls: m.calls, tie: m.tie, ordersDisagree: m.ordersDisagree };
}
