import { DurableObject } from "cloudflare:workers";
import { type Bucket, take } from "../src/limits/token-bucket";

/**
 * One per API key: every Worker instance asks the same object, which handles one request at a time, so
 * the limit is exact across instances (a counter in each instance's memory would multiply it). The
 * bucket is kept in the object's storage, so an eviction does not hand out a fresh burst.
 */
export class RateLimiter extends DurableObject<Env> {
  async take(perMinute: number): Promise<{ allowed: boolean; retryAfterMs: number }> {
    const now = Date.now();
    const bucket = (await this.ctx.storage.get<Bucket>("bucket")) ?? null;
    const result = take(bucket, perMinute, now);
    await this.ctx.storage.put("bucket", result.bucket);
    return { allowed: result.allowed, retryAfterMs: result.retryAfterMs };
  }
}
