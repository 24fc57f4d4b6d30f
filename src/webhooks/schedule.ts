/**
 * When a failed webhook delivery is tried again. Pure, so the schedule is tested without waiting.
 *
 * - Any 2xx is delivered; 410 Gone means the receiver wants no more: stop at once, as the Standard
 *   Webhooks spec asks. Everything else (other 4xx, 5xx, timeouts, refused connections) is retried:
 *   a receiver that is being deployed answers 404 or 502 for a while.
 * - The delay before attempt n+1 is min(cap, base * 2^(n-1)) scaled by a random factor in [0.5, 1)
 *   ("equal jitter"): spread out, so receivers coming back are not hit by every sender at once, yet never
 *   near zero. With the defaults (30 s base, 2 h cap) that is 30 s, 1 min, 2 min, ... then every 1-2 h.
 * - Attempts stop once `windowMs` (default 26 h, so "at least a day") has passed since the first one.
 */
import type { RetryPolicy } from "../platform/config";

export type { RetryPolicy };

export type Verdict = { kind: "delivered" } | { kind: "gone" } | { kind: "retry"; at: number } | { kind: "expired" };

export function afterAttempt(
  policy: RetryPolicy,
  attempt: { n: number; status: number | null; firstAt: number; now: number },
  random: () => number = Math.random,
): Verdict {
  if (attempt.status !== null && attempt.status >= 200 && attempt.status < 300) return { kind: "delivered" };
  if (attempt.status === 410) return { kind: "gone" };
  const delay = Math.min(policy.capMs, policy.baseMs * 2 ** Math.max(0, attempt.n - 1)) * (0.5 + random() / 2);
  const at = attempt.now + Math.round(delay);
  if (at - attempt.firstAt > policy.windowMs) return { kind: "expired" };
  return { kind: "retry", at };
}
