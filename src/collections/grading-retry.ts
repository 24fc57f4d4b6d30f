/**
 * When a closed collection tries again to start its grading after a failure that may pass (the judge
 * gate or D1 not answering), and when it gives up. Pure.
 *
 * Each wait is as long as the time since closing (so waits double), at least `baseMs` and at most
 * `capMs`; the last attempt is made at the deadline, `deadlineMs` after closing, and a failure then ends
 * the closing with its reason. A failure that cannot pass (answers or settings that make no valid
 * evaluation) is not retried at all.
 */
export interface GradingRetry {
  baseMs: number;
  capMs: number;
  deadlineMs: number;
}

export const defaultGradingRetry: GradingRetry = { baseMs: 1_000, capMs: 5 * 60_000, deadlineMs: 60 * 60_000 };

export type GradingVerdict = { kind: "retry"; at: number } | { kind: "give-up" };

export function afterGradingFailure(policy: GradingRetry, attempt: { closedAt: number; now: number }): GradingVerdict {
  const elapsed = attempt.now - attempt.closedAt;
  if (elapsed >= policy.deadlineMs) return { kind: "give-up" };
  const wait = Math.min(policy.capMs, Math.max(policy.baseMs, elapsed));
  return { kind: "retry", at: Math.min(attempt.now + wait, attempt.closedAt + policy.deadlineMs) };
}

/** "90 s", "60 min": how long grading was tried, for the reason a collection shows. */
export function spelledDuration(ms: number): string {
  return ms < 120_000 ? `${Math.round(ms / 1000)} s` : `${Math.round(ms / 60_000)} min`;
}
