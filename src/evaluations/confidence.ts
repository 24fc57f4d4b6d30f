import { answerConfidence, type JudgedMatch } from "../core/confidence";
import type { AnswerView, MatchView } from "../core/outcome";
import { scoreStep } from "../judge/expected";
import type { Template } from "../judge/templates";
import { DEFAULT_REVIEW_SHARE, reviewRuleOf } from "../contract/review-rule";

/** The settings an evaluation's confidence is read with. */
export interface ConfidenceSettings {
  maxScore: number;
  template: Template;
  gradeBoundaries: readonly number[];
  /** Absent where an evaluation predates it: 0.15. */
  reviewShare?: number;
  reviewThreshold?: number | null;
}

/**
 * The answers and matches as `GET /v1/evaluations/:id` shows them: each answer with `judgments`, its
 * 95% `interval` and `review` (src/core/confidence.ts), computed from the recorded matches whenever the
 * evaluation is read, so nothing derived is stored beside them; an extra match's `round` is "extra".
 * `review` says the rule the flags were picked by and how many it flagged.
 */
export function withConfidence(outcome: { answers: AnswerView[]; matches: MatchView[] }, settings: ConfidenceSettings) {
  const ids = outcome.answers.map((a) => a.id);
  const share = settings.reviewShare ?? DEFAULT_REVIEW_SHARE;
  const threshold = settings.reviewThreshold ?? null;
  const confidence: ReturnType<typeof answerConfidence> =
    ids.length === 0
      ? new Map()
      : answerConfidence(ids, outcome.matches.map(judgedMatch), {
          maxScore: settings.maxScore,
          step: scoreStep(settings.template),
          gradeBoundaries: settings.gradeBoundaries,
          reviewShare: share,
          ...(threshold !== null ? { reviewThreshold: threshold } : {}),
        });
  const flagged = [...confidence.values()].filter((c) => c.review?.flagged).length;
  return {
    answers: outcome.answers.map((a) => {
      const c = confidence.get(a.id);
      return { ...a, judgments: c?.judgments ?? 0, interval: c?.interval ?? null, review: c?.review ?? null };
    }),
    matches: outcome.matches.map(({ extra, ...m }) => (extra ? { ...m, round: "extra" as const } : m)),
    review: { rule: reviewRuleOf(threshold), share, threshold, flagged },
  };
}

function judgedMatch(m: MatchView): JudgedMatch {
  return { a: m.a, b: m.b, calls: m.calls, tie: m.tie, ordersDisagree: m.ordersDisagree };
}
