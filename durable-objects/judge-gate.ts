import { DurableObject } from "cloudflare:workers";
import { readConfig, type ServiceConfig } from "../src/config";
import { admit as pickToStart } from "../src/gate/admission";
import { FairGate, type GateStats } from "../src/gate/fair-gate";
import { AdmissionQueue } from "./admission-queue";
import { tournamentStub } from "../src/stubs";

/** Judge calls whose permit times make the endpoint's pace. */
const PACE_SAMPLES = 200;

/** How long past the judge timeout a lease lives: a call is abandoned at the timeout, so this is slack. */
export const LEASE_MARGIN_MS = 10_000;

export interface AdmissionStats {
  /** Evaluations running at once at most (JUDGE_MAX_RUNNING). */
  limit: number;
  running: number;
  queued: number;
}

/**
 * The one place that knows how busy a judge endpoint is: a Durable Object per endpoint
 * (idFromName(base URL)), so every evaluation's Durable Object asks the same gate. It keeps two things.
 *
 * Admission: which evaluations run. A new evaluation is queued here (`enqueue`); at most
 * JUDGE_MAX_RUNNING run at once, and the next starts (its Tournament object is made and told to `start`)
 * when one ends (`forget`). The queue is in this object's SQLite, so a restart loses nothing; a queued
 * evaluation costs a row, not a Durable Object in memory. The choice of the next is the pure
 * `nextToStart`.
 *
 * Permits: which requests go to the judge. `acquire` resolves when a permit is granted (a promise held
 * open here, so a waiting call costs one RPC and no polling); `release` gives it back. The fairness and
 * expiry rules are the pure FairGate. Permits are in memory only: one lives no longer than one judge
 * call, and waiting callers keep this object busy (so in memory) while there is work. Should it restart
 * anyway, the calls that held permits finish uncounted: the cap can be exceeded once by at most the
 * calls that were in flight.
 */
export class JudgeGate extends DurableObject<Env> {
  private readonly gate: FairGate;
  /** Waiters by lease id; each is answered with its lease, or null once dropped. */
  private readonly pending = new Map<string, (lease: string | null) => void>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private timerAt = Infinity;
  private issued = 0;
  /** When each lease held now was granted, and how long the last leases were held: the endpoint's pace. */
  private readonly grantedAt = new Map<string, number>();
  private readonly heldMs: number[] = [];
  private readonly config: ServiceConfig;
  private readonly queue: AdmissionQueue;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.config = readConfig(env);
    this.gate = new FairGate(this.config.maxConcurrency, this.config.judge.timeoutMs + LEASE_MARGIN_MS);
    this.queue = new AdmissionQueue(ctx.storage);
  }

  /** Queues evaluations to run here; those there is room for start at once. Idempotent per id. */
  async enqueue(entries: { id: string; tenant: string; batch?: boolean }[]): Promise<void> {
    this.queue.add(entries);
    this.admit();
    await this.watch();
  }

  async admission(): Promise<AdmissionStats> {
    return { limit: this.config.maxRunning, running: this.queue.running(), queued: this.queue.waiting() };
  }

  /**
   * Starts queued evaluations while fewer than the limit run. The rows are marked before the starts
   * are sent, so two turns never start the same one; a start that fails puts its row back.
   */
  private admit(): void {
    const limit = this.config.maxRunning;
    const running = this.queue.runningByKind();
    if (running.interactive >= limit && running.interactive + running.batch >= limit) return;
    const pick = pickToStart(this.queue.heads(limit), this.queue.lastTenant(), limit, running);
    if (pick.start.length === 0) return;
    this.queue.markStarted(pick.start, pick.lastTenant, Date.now());
    for (const id of pick.start) void this.startTournament(id);
  }

  private async startTournament(id: string): Promise<void> {
    try {
      await tournamentStub(this.env, id).start(id);
    } catch (err) {
      console.error("could not start a queued evaluation; it waits for the next turn", id, err);
      this.queue.markWaiting(id);
    }
  }

  /**
   * The alarm looks in on the queue while it has rows: it starts what a failed start put back, and
   * asks every evaluation that has run for a while to start again. `start` is idempotent, so a running
   * one carries on, and one that ended without telling this gate (its `forget` was lost) tells it now.
   */
  async alarm(): Promise<void> {
    const now = Date.now();
    for (const id of this.queue.startedBefore(now - this.config.watchdogMs)) void this.startTournament(id);
    this.admit();
    await this.watch();
  }

  private async watch(): Promise<void> {
    if (this.queue.running() + this.queue.waiting() === 0) return;
    if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(Date.now() + this.config.watchdogMs);
  }

  /**
   * Waits for a permit for one judge request of `owner` (an evaluation); returns the lease id, or null
   * when the waiter was dropped (its evaluation ended, or a newer run of it asked). Null rather than a
   * rejection: a dropped waiter's caller has often gone already (a cancelled or restarted evaluation),
   * and a rejection with no one to take it is an error in the log for what is routine.
   * `releases` are leases the caller is done with, given back first: a finished call and the next one
   * usually travel in this one message instead of two.
   */
  async acquire(owner: string, run: string, releases: string[] = [], batch = false): Promise<string | null> {
    this.releaseAll(releases);
    // unique within this object's life; `run` in the waiter keeps ids of different lives apart anyway
    const id = `${(this.issued++).toString(36)}.${owner}.${run}`;
    const granted = new Promise<string | null>((answer) => this.pending.set(id, answer));
    const { granted: now, dropped } = this.gate.request({ id, owner, run, ...(batch ? { batch } : {}) }, Date.now());
    this.settle(now, dropped);
    return granted;
  }

  async release(...leases: string[]): Promise<void> {
    this.releaseAll(leases);
  }

  /** An evaluation ended (finished or cancelled): its permits, waiters and place go, and the next starts. */
  async forget(owner: string): Promise<void> {
    const { granted, dropped } = this.gate.forget(owner, Date.now());
    this.settle(granted, dropped);
    if (this.queue.remove(owner)) this.admit();
  }

  private releaseAll(leases: string[]): void {
    const now = Date.now();
    for (const lease of leases) {
      const granted = this.grantedAt.get(lease);
      if (granted !== undefined) {
        this.grantedAt.delete(lease);
        this.heldMs.push(now - granted);
        if (this.heldMs.length > PACE_SAMPLES) this.heldMs.shift();
      }
      this.settle(this.gate.release(lease, now), []);
    }
  }

  /**
   * How long a judge call holds its permit here lately (the median of the last calls), for estimates
   * before a run: null before any call has been made since this object started.
   */
  async pace(): Promise<{ secondsPerCall: number | null; samples: number; cap: number }> {
    const sorted = [...this.heldMs].sort((a, b) => a - b);
    const median = sorted.length ? sorted[Math.floor(sorted.length / 2)] / 1000 : null;
    return { secondsPerCall: median, samples: sorted.length, cap: this.gate.cap };
  }

  async stats(): Promise<GateStats> {
    return this.gate.stats();
  }

  private settle(granted: { id: string }[], dropped: { id: string }[]): void {
    const now = Date.now();
    for (const w of granted) this.grantedAt.set(w.id, now);
    for (const w of dropped) this.grantedAt.delete(w.id);
    for (const w of granted) {
      this.pending.get(w.id)?.(w.id);
      this.pending.delete(w.id);
    }
    for (const w of dropped) {
      this.pending.get(w.id)?.(null);
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
