import { effectiveRateLimit } from "../limits/key-limits";
import { readConfig } from "../platform/config";
import { rateLimiterStub } from "../platform/stubs";

/**
 * The key's rate limit: its own (set when it was issued) or the service's RATE_LIMIT_PER_MINUTE; 0 or
 * unset is no limit. Counted by one RateLimiter object per key, so it holds across Worker instances.
 * Returns why the request is refused and when to come back, or null to let it through.
 */
export async function rateLimit(env: Env, keyHash: string, own: number | null): Promise<{ detail: string; retryAfter: number } | null> {
  const perMinute = effectiveRateLimit(own, readConfig(env).rateLimitPerMinute);
  if (perMinute === 0) return null;
  const retryAfter = await overLimit(env, keyHash, perMinute);
  if (retryAfter === null) return null;
  return { detail: `rate limit of ${perMinute} requests per minute for this API key reached; retry after ${retryAfter} s`, retryAfter };
}

/**
 * One request taken from the RateLimiter object named `name` (one per key, or per client address):
 * null while within `perMinute`, else the whole seconds to wait, at least 1, for Retry-After.
 */
export async function overLimit(env: Env, name: string, perMinute: number): Promise<number | null> {
  const result = await rateLimiterStub(env, name).take(perMinute);
  return result.allowed ? null : Math.max(1, Math.ceil(result.retryAfterMs / 1000));
}
