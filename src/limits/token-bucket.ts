/**
 * A token bucket: `perMinute` requests a minute on average, bursts up to `perMinute`. Pure; the
 * RateLimiter object keeps one bucket per API key and applies this to it.
 */
export interface Bucket {
  tokens: number;
  at: number;
}

export interface Take {
  bucket: Bucket;
  allowed: boolean;
  /** When refused: how long until one token is back (for Retry-After). */
  retryAfterMs: number;
}

export function take(bucket: Bucket | null, perMinute: number, now: number): Take {
  const rate = perMinute / 60_000; // tokens per ms
  const elapsed = bucket ? Math.max(0, now - bucket.at) : 0;
  const tokens = bucket ? Math.min(perMinute, bucket.tokens + elapsed * rate) : perMinute;
  if (tokens >= 1) return { bucket: { tokens: tokens - 1, at: now }, allowed: true, retryAfterMs: 0 };
  return { bucket: { tokens, at: now }, allowed: false, retryAfterMs: Math.ceil((1 - tokens) / rate) };
}
