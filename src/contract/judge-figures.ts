import { z } from "zod";

export const usage = z.looseObject({
  judgeCalls: z.number().int(),
  promptTokens: z.number().int(),
  completionTokens: z.number().int(),
  retries: z.number().int(),
  parseFailures: z.number().int(),
  /** Feedback calls answered (one per answer with `feedback: "judge"`); not in judgeCalls, which are the tournament's. */
  feedbackCalls: z.number().int().optional(),
  /** The prompt tokens that are the prefix all of the question's calls share (what a prefix cache reuses), and their share. */
  sharedPrefixTokens: z.number().int().optional(),
  sharedPrefixShare: z.number().optional(),
  /** Calls spent on extra matches (in judgeCalls), and the calls adaptive debiasing did not send. */
  extraCalls: z.number().int().optional(),
  callsSaved: z.number().int().optional(),
});

export const agreement = z
  .looseObject({
    n: z.number().int(),
    pearson: z.number().nullable(),
    spearman: z.number().nullable(),
    mae: z.number(),
    exact: z.number(),
    qwk: z.number().nullable(),
  })
  .nullable();

/** A share of the judge's calls or matches: `count` of `of`, with its 95% Wilson interval; null share and interval when `of` is 0. */
const diagnosticShare = z.looseObject({
  share: z.number().nullable(),
  interval: z.tuple([z.number(), z.number()]).nullable(),
  count: z.number().int(),
  of: z.number().int(),
  /** The published figure to read it against (FastChat's judge study, AlpacaEval). */
  anchor: z.looseObject({ value: z.number(), source: z.string() }).optional(),
});

/**
 * The judge's biases, from the calls and matches recorded (docs/grading.md, "Judging the judge").
 * `firstPositionWins`: of the calls of matches judged in both orders that chose a winner, those won by
 * the answer shown first. `ordersDisagree`: of those matches, the ones whose two calls chose different
 * winners. `longerWins`: of the matches decided by the scores whose answers differ in length by
 * `lengthRatio` or more (in characters), those the longer answer won. `parseRetried`: of all calls, those
 * asked again. `ties`: of the pairwise matches played (extra ones aside), those whose written scores
 * tied; `byPosition` of them decided by position. `warnings`: the figures far from fair, and why.
 */
export const judgeDiagnostics = z.looseObject({
  firstPositionWins: diagnosticShare,
  ordersDisagree: diagnosticShare,
  longerWins: diagnosticShare.extend({ lengthRatio: z.number() }),
  parseRetried: diagnosticShare,
  ties: diagnosticShare.extend({ byPosition: z.number().int() }),
  warnings: z.array(z.looseObject({ figure: z.string(), message: z.string() })),
});

/**
 * What a rerun needs to ask the same, and what can still differ: the sampling seed of every call is
 * derived from `seed` by `seedPolicy` (each call also reports the one it sent); `sampling` is what
 * every call sends (`topP` null: not sent, the endpoint's default; `maxTokens` null: not recorded, an
 * evaluation made before it was kept); `promptVersion` names the prompts' wording; `models` and
 * `revisions` are those the judge's replies named (filled in once the evaluation has ended; empty
 * for calls recorded before they were kept; `revisions` only where the endpoint reports one, OpenAI's `system_fingerprint`).
 */
export const reproducibility = z.looseObject({
  seed: z.number().int(),
  seedPolicy: z.string(),
  sampling: z.looseObject({ temperature: z.number(), topP: z.number().nullable(), maxTokens: z.number().int().nullable() }),
  promptVersion: z.string().nullable(),
  models: z.array(z.string()),
  revisions: z.array(z.string()),
});

/**
 * On an evaluation made by POST …/rerun: the evaluation it replays (`of`), and once both have
 * completed, how many matches it has (`matches`) and how many of them came out differently from the
 * original's match of the same index (`differing`: other answers met, another winner or other
 * scores); both null until then.
 */
export const rerunReport = z.looseObject({
  of: z.string(),
  matches: z.number().int().nullable(),
  differing: z.number().int().nullable(),
});

export type Usage = z.output<typeof usage>;

export type JudgeDiagnosticsView = z.output<typeof judgeDiagnostics>;
