import { DurableObject } from "cloudflare:workers";
import { type Bucket, take } from "../src/limits/token-bucket";
import { admitStream, releaseStream, renewStream, type StreamLease } from "../src/limits/stream-leases";

/**
 * One per API key: every Worker instance asks the same object, which handles one request at a time, so
 * the limits are exact across instances (a counter in each instance's memory would multiply them): the
 * key's request rate, and its event streams open at once. Both are kept in the object's storage, so an
 * eviction neither hands out a fresh burst nor forgets the streams that are open.
 */
export class RateLimiter extends DurableObject<Env> {
  async take(perMinute: number): Promise<{ allowed: boolean; retryAfterMs: number }> {
    const now = Date.now();
    const bucket = (await this.ctx.storage.get<Bucket>("bucket")) ?? null;
    const result = take(bucket, perMinute, now);
    await this.ctx.storage.put("bucket", result.bucket);
    return { allowed: result.allowed, retryAfterMs: result.retryAfterMs };
  }

  /** A place for a new event stream, under `cap` open at once: its lease id, or null when every place is taken. */
  async openStream(cap: number): Promise<string | null> {
    const id = crypto.randomUUID();
    const admission = admitStream(await this.leases(), id, cap, Date.now());
    await this.ctx.storage.put("streams", admission.leases);
    return admission.allowed ? id : null;
  }

  async renewStream(id: string): Promise<void> {
    await this.ctx.storage.put("streams", renewStream(await this.leases(), id, Date.now()));
  }

  async closeStream(id: string): Promise<void> {
    await this.ctx.storage.put("streams", releaseStream(await this.leases(), id));
  }

  private async leases(): Promise<StreamLease[]> {
    return (await this.ctx.storage.get<StreamLease[]>("streams")) ?? [];
  }
}
