/**
 * A token bucket: tokens come back at a steady rate up to a burst, and a request is let through if the
 * bucket holds what it costs. Pure; the RateLimiter object keeps one bucket of requests per API key
 * (`take`), and each Tournament object one bucket of bytes per key reading it (src/limits/read-budget.ts).
 */
export interface Bucket {
  tokens: number;
  at: number;
}

/** How a bucket fills: `perMs` tokens a millisecond, up to `burst`. */
export interface Refill {
  perMs: number;
  burst: number;
}

export interface Take {
  bucket: Bucket;
  allowed: boolean;
  /** When refused: how long until the bucket holds the cost (for Retry-After). */
  retryAfterMs: number;
}

/**
 * Takes `cost` tokens from the bucket (a new bucket is full). A refusal takes nothing. A cost above the
 * burst is taken as the whole burst: the bucket could never hold more, and such a request must still
 * pass once in a while, when the bucket is full.
 */
export function spend(bucket: Bucket | null, refill: Refill, cost: number, now: number): Take {
  const tokens = level(bucket, refill, now);
  const due = Math.min(cost, refill.burst);
  if (tokens >= due) return { bucket: { tokens: tokens - due, at: now }, allowed: true, retryAfterMs: 0 };
  return { bucket: { tokens, at: now }, allowed: false, retryAfterMs: Math.ceil((due - tokens) / refill.perMs) };
}

/** The tokens in the bucket at `now`. */
export function level(bucket: Bucket | null, refill: Refill, now: number): number {
  if (!bucket) return refill.burst;
  const elapsed = Math.max(0, now - bucket.at);
  return Math.min(refill.burst, bucket.tokens + elapsed * refill.perMs);
}

/** Whether the bucket has filled up by `now`: it is then the same as no bucket, and may be forgotten. */
export function isFull(bucket: Bucket, refill: Refill, now: number): boolean {
  return level(bucket, refill, now) >= refill.burst;
}

/** One request: `perMinute` requests a minute on average, bursts up to `perMinute`. */
export function take(bucket: Bucket | null, perMinute: number, now: number): Take {
  return spend(bucket, { perMs: perMinute / 60_000, burst: perMinute }, 1, now);
}

/** Retry-After in whole seconds: rounded up, and at least 1 (0 would invite an immediate retry). */
export function retryAfterSeconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}
