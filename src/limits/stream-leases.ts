/**
 * The event streams one API key has open, as leases: a stream holds a lease while it is open and gives
 * it back when it ends. A lease that is not renewed within `leaseMs` has expired and frees its place, so
 * a stream whose Worker died without giving it back (a crash, an evicted isolate) does not hold a place
 * for ever. Pure; the RateLimiter object keeps one list per key and applies these to it.
 */
export interface StreamLease {
  id: string;
  expiresAt: number;
}

/** How long a lease lasts unless renewed; an open stream renews it every `renewEveryMs`. */
export const leaseMs = 90_000;
export const renewEveryMs = 30_000;

/** The default cap on streams open at once per key (STREAMS_PER_KEY). */
export const defaultStreamsPerKey = 32;

/**
 * How often an open stream looks its key up again (STREAM_KEY_CHECK_MS), so a revoked key's streams
 * end within this: one D1 read of one row per stream each time.
 */
export const defaultKeyCheckMs = 30_000;

/** When a stream opened with a key next looks at it: `everyMs` from now, or the key's expiry when that is sooner. */
export function nextKeyCheckAt(now: number, expiresAt: number | null, everyMs: number): number {
  return expiresAt === null ? now + everyMs : Math.max(now, Math.min(now + everyMs, expiresAt));
}

/** Takes a place for stream `id` if fewer than `cap` unexpired leases are held (expired ones are dropped either way). */
export function admitStream(
  leases: readonly StreamLease[],
  id: string,
  cap: number,
  now: number,
): { allowed: boolean; leases: StreamLease[] } {
  const live = leases.filter((l) => l.expiresAt > now);
  if (live.length < cap) return { allowed: true, leases: [...live, { id, expiresAt: now + leaseMs }] };
  return { allowed: false, leases: live };
}

/** The stream is still open: its lease runs for `leaseMs` from now (a lease that expired is not revived). */
export function renewStream(leases: readonly StreamLease[], id: string, now: number): StreamLease[] {
  return leases.filter((l) => l.expiresAt > now).map((l) => (l.id === id ? { id, expiresAt: now + leaseMs } : l));
}

/** The stream ended: its place is free. */
export function releaseStream(leases: readonly StreamLease[], id: string): StreamLease[] {
  return leases.filter((l) => l.id !== id);
}
