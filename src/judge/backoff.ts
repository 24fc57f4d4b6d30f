/**
 * Exponential backoff with full jitter (AWS architecture blog, "Exponential Backoff and Jitter"): the
 * delay before retry `attempt` (1-based) is uniform in [0, min(cap, base * 2^(attempt-1))]. Full jitter
 * spreads out many evaluations that failed at the same moment, so they do not hit a recovering judge
 * in lockstep.
 */
export function backoffDelay(attempt: number, baseMs: number, capMs: number, random: () => number = Math.random): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.floor(random() * ceiling);
}
