import { z } from "zod";

// Which answers a teacher is asked to look at (issue 26): every judged answer gets the probability
// that its grade is wrong, and the rule below picks the flagged ones. Part of the wire contract
// because a request may choose it and the result says which rule it was read with.

/** Flag the 15% most likely wrong when the request names no share: what the review bench measured. */
export const DEFAULT_REVIEW_SHARE = 0.15;

/**
 * "share": the ceil(share x answers) most likely wrong; "share-or-threshold": those, and also every
 * answer whose probability is above the threshold (a union: a threshold only ever adds flags).
 */
export const REVIEW_RULES = ["share", "share-or-threshold"] as const;
export type ReviewRule = (typeof REVIEW_RULES)[number];

/** The share of answers flagged, the most likely wrong first: in (0, 1]. */
export function reviewShare() {
  return z.number().gt(0, "must be greater than 0").max(1, "must be at most 1");
}

/** A probability past which an answer is flagged too: in (0, 1) (0 would flag all, 1 none). */
export function reviewThreshold() {
  return z.number().gt(0, "must be greater than 0").lt(1, "must be less than 1");
}

/** The rule an evaluation's flags are read with, as its result says it. */
export function reviewRuleOf(threshold: number | null): ReviewRule {
  return threshold === null ? "share" : "share-or-threshold";
}
