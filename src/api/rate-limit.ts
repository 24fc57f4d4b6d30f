import { readConfig } from "../platform/config";
import { rateLimiterStub } from "../platform/stubs";

/**
 * The key's rate limit: its own (set when it was issued) or the service's RATE_LIMIT_PER_MINUTE; 0 or
 * unset is no limit. Counted by one RateLimiter object per key, so it holds across Worker instances.
 * Returns why the request is refused and when to come back, or null to let it through.
 */
export async function rateLimit(env: Env, keyHash: string, own: number | null): Promise<{ detail: string; retryAfter: number } | null> {
  const perMinute = own ?? readConfig(env).rateLimitPerMinute;
  if (!Number.isFinite(perMinute) || perMinute <= 0) return null;
  const limiter = rateLimiterStub(env, keyHash);
  const result = await limiter.take(perMinute);
  if (result.allowed) return null;
  const retryAfter = Math.max(1, Math.ceil(result.retryAfterMs / 1000));
  return { detail: `rate limit of ${perMinute} requests per minute for this API key reached; retry after ${retryAfter} s`, retryAfter };
}
