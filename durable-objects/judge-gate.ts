import { DurableObject } from "cloudflare:workers";
import { readConfig } from "../src/config";
import type { AppEnv } from "../src/env";
import { FairGate, type GateStats } from "../src/gate/fair-gate";

/** How long past the judge timeout a lease lives: a call is abandoned at the timeout, so this is slack. */
export const LEASE_MARGIN_MS = 10_000;

/**
 * The one place that knows how many requests are open at a judge endpoint: a Durable Object per
 * endpoint (idFromName(base URL)), so every evaluation's Durable Object asks the same gate. `acquire`
 * resolves when a permit is granted (a promise held open here, so a waiting call costs one RPC and no
 * polling); `release` gives it back. The fairness and expiry rules are the pure FairGate.
 *
 * State is in memory only: a permit lives no longer than one judge call, and waiting callers keep this
 * object busy (so in memory) while there is work. Should it restart anyway, the calls that held permits
 * finish uncounted: the cap can be exceeded once by at most the calls that were in flight.
 */
export class JudgeGate extends DurableObject<AppEnv> {
  private readonly gate: FairGate;
  private readonly pending = new Map<string, { grant: (id: string) => void; drop: (reason: Error) => void }>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private timerAt = Infinity;
  private issued = 0;

  constructor(ctx: DurableObjectState, env: AppEnv) {
    super(ctx, env);
    const config = readConfig(env);
    this.gate = new FairGate(config.maxConcurrency, config.judge.timeoutMs + LEASE_MARGIN_MS);
  }

  /**
   * Waits for a permit for one judge request of `owner` (an evaluation); returns the lease id.
   * `releases` are leases the caller is done with, given back first: a finished call and the next one
   * usually travel in this one message instead of two.
   */
  async acquire(owner: string, run: string, releases: string[] = []): Promise<string> {
    this.releaseAll(releases);
    // unique within this object's life; `run` in the waiter keeps ids of different lives apart anyway
    const id = `${(this.issued++).toString(36)}.${owner}.${run}`;
    const granted = new Promise<string>((grant, drop) => this.pending.set(id, { grant, drop }));
    const { granted: now, dropped } = this.gate.request({ id, owner, run }, Date.now());
    this.settle(now, dropped);
    return granted;
  }

  async release(...leases: string[]): Promise<void> {
    this.releaseAll(leases);
  }

  /** Drops an evaluation's permits and waiters (cancelled or finished). */
  async forget(owner: string): Promise<void> {
    const { granted, dropped } = this.gate.forget(owner, Date.now());
    this.settle(granted, dropped);
  }

  private releaseAll(leases: string[]): void {
    const now = Date.now();
    for (const lease of leases) this.settle(this.gate.release(lease, now), []);
  }

  async stats(): Promise<GateStats> {
    return this.gate.stats();
  }

  private settle(granted: { id: string }[], dropped: { id: string }[]): void {
    for (const w of granted) {
      this.pending.get(w.id)?.grant(w.id);
      this.pending.delete(w.id);
    }
    for (const w of dropped) {
      this.pending.get(w.id)?.drop(new Error("superseded: a newer run of this evaluation asked for the judge"));
      this.pending.delete(w.id);
    }
    this.armExpiry();
  }

  /** While anyone waits, wake at the earliest lease expiry to reclaim permits a dead holder kept. */
  private armExpiry(): void {
    const next = this.gate.stats().waiting > 0 ? this.gate.nextExpiry() : null;
    if (next === null || next >= this.timerAt) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = next;
    this.timer = setTimeout(
      () => {
        this.timer = null;
        this.timerAt = Infinity;
        this.settle(this.gate.expire(Date.now()), []);
      },
      Math.max(0, next - Date.now()),
    );
  }
}
