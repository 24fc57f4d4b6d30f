import { adaptiveMargin } from "../core/extra";
import { METHODS, methodCore } from "../core/methods";
import type { EvaluationInput, Outcome } from "../model/evaluation";

export type FirstState = { ok: true; state: unknown } | { ok: false; reason: string };

/**
 * An evaluation's tournament before any judge call, or why its method refuses the input (answer ids
 * that are not unique, too few answers). Pure and deterministic: an input refused once is refused on
 * every try, so its evaluation must fail rather than be started again and again (issue 11).
 */
export function firstState(input: EvaluationInput): FirstState {
  if (!Object.hasOwn(METHODS, input.method)) return { ok: false, reason: `unknown method "${input.method}"` };
  try {
    const state = methodCore(input.method).start(
      input.answers.map((a) => a.id),
      {
        seed: input.seed,
        debias: input.debias,
        pairing: input.pairing,
        byes: input.byes,
        tieBreak: input.tieBreak,
        extraPlacement: input.extraPlacement,
        extraCalls: input.extraCalls ?? 0,
        adaptiveMargin: adaptiveMargin(input.maxScore),
        criteria: input.rubric?.criteria.map((c) => c.name),
      },
    );
    return { ok: true, state };
  } catch (err) {
    return { ok: false, reason: err instanceof Error ? err.message : String(err) };
  }
}

/** The outcome of an evaluation that never started: every answer as posted, unscored and unranked. */
export function unplayedOutcome(input: EvaluationInput): Outcome {
  const n = input.answers.length;
  return {
    champion: null,
    answers: input.answers.map((a) => ({
      id: a.id,
      score: null,
      scores: [],
      eliminatedInRound: null,
      rank: n,
      ...(a.examinee ? { examinee: a.examinee } : {}),
      text: a.text,
    })),
    matches: [],
  };
}
