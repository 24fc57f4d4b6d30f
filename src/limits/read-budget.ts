import { type Bucket, isFull, type Refill, retryAfterSeconds, spend } from "./token-bucket";

/**
 * How many bytes of a running evaluation each API key may read in full, kept by the evaluation's own
 * Tournament object (one per evaluation, which already serves the read: the count costs no round trip
 * and holds across Worker instances). Reading a large evaluation back to back costs its object, which
 * runs the tournament on the same thread, the time to hand out megabytes; past the budget a read is
 * refused with a Retry-After instead, which costs next to nothing. Deterministic: the caller gives the
 * time.
 */
export interface ReadBudget {
  bytesPerSecond: number;
  burstBytes: number;
}

/** Readers remembered at most: past it the least recently seen is forgotten (it gets a fresh burst). */
export const MAX_READERS = 256;

export class ReadBudgets {
  private readonly refill: Refill;
  /** By reader, least recently seen first (a read moves its reader to the end). */
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    budget: ReadBudget,
    private readonly maxReaders = MAX_READERS,
  ) {
    this.refill = { perMs: budget.bytesPerSecond / 1000, burst: budget.burstBytes };
  }

  /** Charges `reader` `bytes`: allowed, or refused (charging nothing) with the wait until it would be. */
  charge(reader: string, bytes: number, now: number): { allowed: boolean; retryAfterMs: number } {
    const taken = spend(this.buckets.get(reader) ?? null, this.refill, bytes, now);
    this.buckets.delete(reader);
    this.buckets.set(reader, taken.bucket);
    this.forget(now);
    return { allowed: taken.allowed, retryAfterMs: taken.retryAfterMs };
  }

  /** Readers remembered now (for tests of the bound). */
  get size(): number {
    return this.buckets.size;
  }

  /**
   * Forgets the readers whose bucket has filled up again (a full bucket is the same as none): the least
   * recently seen come first, so the sweep stops at the first that is not full. Then, should a caller
   * cycle through more keys than that within a refill, the least recently seen beyond the cap.
   */
  private forget(now: number): void {
    for (const [reader, bucket] of this.buckets) {
      if (!isFull(bucket, this.refill, now)) break;
      this.buckets.delete(reader);
    }
    for (const reader of this.buckets.keys()) {
      if (this.buckets.size <= this.maxReaders) break;
      this.buckets.delete(reader);
    }
  }
}

/** The longest a refused read is held before its 429 is sent (see `refusalPace`). */
export const MAX_REFUSAL_HOLD_MS = 1_000;

/**
 * How a refused read is answered: held for part of the wait (at most `maxHoldMs`), then a 429 whose
 * Retry-After is the rest of it, rounded up and at least 1 s. A refusal sent at once costs the service
 * a whole request (key lookup, D1, the object) for nothing, and a client that ignores Retry-After asks
 * again at once: 8 such clients sent 60 requests a second and still made a tournament 3x slower. Held,
 * each asks at most about once a second, and a held request costs no CPU; a client that honours
 * Retry-After waits, in all, what the budget needs (to the second above).
 */
export function refusalPace(retryAfterMs: number, maxHoldMs = MAX_REFUSAL_HOLD_MS): { holdMs: number; retryAfterSeconds: number } {
  const holdMs = Math.max(0, Math.min(retryAfterMs, maxHoldMs));
  return { holdMs, retryAfterSeconds: retryAfterSeconds(retryAfterMs - holdMs) };
}

/** The size of `text` in UTF-8, what a read of it sends, counted without encoding it. */
export function utf8Bytes(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // one UTF-16 unit is 1 byte below 0x80, 2 below 0x800, else 3; a surrogate pair (2 units) is 4, 2 each
    if (c >= 0x80) bytes += c < 0x800 ? 1 : c >= 0xd800 && c <= 0xdfff ? 1 : 2;
  }
  return bytes;
}
