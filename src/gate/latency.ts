/**
 * Judge call latencies of one endpoint over a sliding window (the last minutes), for GET /v1/judges:
 * the median and the 95th percentile. Pure, with the clock passed in; bounded in memory by `maxSamples`.
 */
export class LatencyWindow {
  private readonly samples: { at: number; ms: number }[] = [];

  constructor(
    readonly windowMs = 5 * 60_000,
    private readonly maxSamples = 2_000,
  ) {}

  add(ms: number, now: number): void {
    this.samples.push({ at: now, ms });
    if (this.samples.length > this.maxSamples) this.samples.shift();
    this.trim(now);
  }

  /** p50 and p95 in ms over the window (nearest rank), or null with no call in it. */
  quantiles(now: number): { p50: number; p95: number; n: number } | null {
    this.trim(now);
    if (this.samples.length === 0) return null;
    const sorted = this.samples.map((s) => s.ms).sort((a, b) => a - b);
    return { p50: nearestRank(sorted, 0.5), p95: nearestRank(sorted, 0.95), n: sorted.length };
  }

  private trim(now: number): void {
    while (this.samples.length > 0 && this.samples[0].at <= now - this.windowMs) this.samples.shift();
  }
}

function nearestRank(sorted: readonly number[], q: number): number {
  return sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)];
}
