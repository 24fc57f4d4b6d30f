import { metered } from "../src/platform/meter";
import { DurableObject } from "cloudflare:workers";
import { readConfig, type ServiceConfig } from "../src/platform/config";
export type { AdmissionStats, JudgesView };
import { hasRoom, admit as pickToStart } from "../src/gate/admission";
import { FairGate, type GateStats, type Grant } from "../src/gate/fair-gate";
import { endpointsFor, poolModel } from "../src/judge/pool";
import type { JudgeRoute } from "../src/judge/client";
import { AdmissionQueue } from "./admission-queue";
import type { AdmissionStats, JudgesView } from "../src/gate/judges-view";
import { type AttemptOutcome, JudgeHealth } from "./judge-health";
import { tournamentStub } from "../src/platform/stubs";

/** Judge calls whose permit times make the endpoint's pace. */
const PACE_SAMPLES = 200;

/** How long past the judge timeout a lease lives: a call is abandoned at the timeout, so this is slack. */
export const LEASE_MARGIN_MS = 10_000;

/** An estimate's /tokenize calls one tenant may have open at the judge at once. */
export const ESTIMATE_PERMITS_PER_TENANT = 2;

/** A permit: its lease, its endpoint and the model it was routed for; or, with no permit, the judge skipped as down. */
export type Permit = { lease: string; endpoint: string; model?: string } | { skipped: string };

/** A permit given back, with how the attempt it covered went at its endpoint. */
export interface Released {
  lease: string;
  outcome: AttemptOutcome;
}

/**
 * The one place that knows how busy the judge is: a Durable Object per judge pool (idFromName of the
 * pool's key: the base URL for a pool of one), so every evaluation's Durable Object asks the same gate.
 * It keeps three things.
 *
 * Admission: which evaluations run. A new evaluation is queued here (`enqueue`); at most
 * JUDGE_MAX_RUNNING run at once, one tenant's at most TENANT_SHARE of them, and the next starts (its
 * Tournament object is made and told to `start`) when one ends (`forget`). The queue is in this
 * object's SQLite, so a restart loses nothing; a queued evaluation costs a row, not a Durable Object in
 * memory. The choice of the next is the pure `admit` (src/gate/admission.ts).
 *
 * Permits: which requests go to the judge, and to which endpoint of the pool. `acquire` resolves when a
 * permit is granted (a promise held open here, so a waiting call costs one RPC and no polling) and says
 * for which endpoint; `release` gives it back with how the attempt went. The fairness, routing and
 * expiry rules are the pure FairGate; each endpoint has its own cap there.
 *
 * Permits are in memory only: one lives no longer than one judge call, and waiting callers keep this
 * object busy (so in memory) while there is work. Should it restart anyway, the calls that held permits
 * finish uncounted: the cap can be exceeded once by at most the calls that were in flight.
 *
 * Health: a circuit per endpoint, fed by those outcomes, and probes of the endpoints that are down
 * (JudgeHealth); routing sends nothing to an endpoint that is down while another is up. Also in memory.
 */
export class JudgeGate extends DurableObject<Env> {
  private readonly gate: FairGate;
  /** Waiters by lease id; each is answered with its lease and endpoint, or null once dropped. */
  private readonly pending = new Map<string, (grant: Permit | null) => void>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private timerAt = Infinity;
  private issued = 0;
  /** How long the last leases were held: the pool's pace. */
  private readonly heldMs: number[] = [];
  private readonly config: ServiceConfig;
  private readonly queue: AdmissionQueue;
  private readonly health: JudgeHealth;
  /** Checks of the pool's models under way, by the model asked for: the starts that come at once share one. */
  /** The permits held for estimates' /tokenize calls, by lease, with the tenant that holds each. */
  private readonly estimates = new Map<string, string>();
  private readonly checking = new Map<string, Promise<{ model: string } | { error: string; unanswered?: true }>>();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, metered(env));
    this.config = readConfig(env);
    const endpoints = this.config.pool?.endpoints ?? [];
    // a pool of several models routes each call to an endpoint that serves its model; one model, anywhere
    const several = (this.config.pool?.models.length ?? 0) > 1;
    const slots = endpoints.length
      ? endpoints.map((e) => ({ id: e.url, cap: e.maxConcurrency, weight: e.weight, models: several ? (e.models ?? []) : null }))
      : this.config.maxConcurrency;
    this.gate = new FairGate(slots, this.config.judge.timeoutMs + LEASE_MARGIN_MS);
    this.queue = new AdmissionQueue(ctx.storage);
    this.health = new JudgeHealth(endpoints, Math.min(5_000, this.config.judge.timeoutMs), (url, health) =>
      this.settle(this.gate.setHealth(url, health, Date.now()), []),
    );
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
   * Starts queued evaluations while fewer than the limit run, each tenant within its share (the pure
   * `admit` says which). The rows are marked before the starts are sent, so two turns never start the
   * same one; a start that fails puts its row back.
   */
  private admit(): void {
    const limit = this.config.maxRunning;
    const running = this.queue.runningByTenant();
    if (!hasRoom(limit, running)) return;
    const pick = pickToStart(this.queue.heads(limit), this.queue.lastTenant(), limit, running);
    if (pick.start.length === 0) return;
    this.queue.markStarted(pick.start, pick.lastTenant, Date.now());
    for (const id of pick.start) void this.startTournament(id);
  }

  private async startTournament(id: string): Promise<void> {
    try {
      // the gate's own name (its pool's key) goes along: a changed config names another gate
      await tournamentStub(this.env, id).start(id, this.ctx.id.name);
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
   * Waits for a permit for one judge request of `owner` (an evaluation); returns the lease and the
   * endpoint it is for (not `avoid`, the one the call last failed at, if any other has room), or null
   * when the waiter was dropped (its evaluation ended, or a newer run of it asked). Null rather than a
   * rejection: a dropped waiter's caller has often gone already (a cancelled or restarted evaluation),
   * and a rejection with no one to take it is an error in the log for what is routine.
   * `releases` are leases the caller is done with, given back first: a finished call and the next one
   * usually travel in this one message instead of two. `route`: the models the call may be asked of (a
   * panel's, see FairGate); the permit then names the one chosen, or says the judge was skipped.
   */
  async acquire(
    owner: string,
    run: string,
    releases: Released[] = [],
    batch = false,
    avoid?: string,
    route?: JudgeRoute,
  ): Promise<Permit | null> {
    this.releaseAll(releases);
    // unique within this object's life; `run` in the waiter keeps ids of different lives apart anyway
    const id = `${(this.issued++).toString(36)}.${owner}.${run}`;
    const granted = new Promise<Permit | null>((answer) => this.pending.set(id, answer));
    const { granted: now, dropped } = this.gate.request(
      {
        id,
        owner,
        run,
        ...(batch ? { batch } : {}),
        ...(avoid ? { avoid } : {}),
        ...(route?.models.length ? { models: route.models } : {}),
        ...(route?.skipIfDown?.length ? { skipIfDown: route.skipIfDown } : {}),
      },
      Date.now(),
    );
    this.settle(now, dropped);
    return granted;
  }

  async release(...leases: Released[]): Promise<void> {
    this.releaseAll(leases);
  }

  /**
   * A permit for one dry run's /tokenize call, counted under the pool's cap like any judge request,
   * or null: only when one is free now and no judge call waits (an estimate does not queue behind
   * grading nor take its turn; it falls back to its assumed ratio), and a tenant has at most
   * ESTIMATE_PERMITS_PER_TENANT open at once. Given back with `release` (outcome "none": a tokenizer
   * says nothing of how the endpoint grades).
   */
  async estimatePermit(tenant: string): Promise<{ lease: string; endpoint: string } | null> {
    const stats = this.gate.stats();
    if (stats.waiting > 0 || stats.inUse >= stats.cap) return null;
    let open = 0;
    for (const [lease, holder] of this.estimates) {
      if (this.gate.endpointOf(lease) === undefined)
        this.estimates.delete(lease); // expired
      else if (holder === tenant) open++;
    }
    if (open >= ESTIMATE_PERMITS_PER_TENANT) return null;
    const owner = `estimate:${tenant}`;
    const id = `${(this.issued++).toString(36)}.${owner}`;
    const { granted, dropped } = this.gate.request({ id, owner, run: "estimate" }, Date.now());
    this.settle(granted, dropped);
    const mine = granted.find((g) => g.id === id);
    if (!mine) {
      // not granted at once after all: it must not wait in the queue with no one to take the permit
      const forgotten = this.gate.forget(owner, Date.now());
      this.settle(forgotten.granted, forgotten.dropped);
      return null;
    }
    this.estimates.set(id, tenant);
    return { lease: id, endpoint: mine.endpoint };
  }

  /**
   * The model the pool serves, checked when an evaluation starts: every endpoint's /v1/models must
   * list the same one (`want`, when the evaluation names its model), or the evaluation is refused
   * with who serves what. A pool of one with its model configured is not asked, as before pools. In a
   * pool of several models, only the endpoints that serve `want` are asked, and a model none serves
   * is refused.
   */
  async poolModel(asked?: string): Promise<{ model: string } | { error: string; unanswered?: true }> {
    const pool = this.config.pool;
    const several = (pool?.models.length ?? 0) > 1;
    // an evaluation that names no model, in a pool of several, is judged by the pool's first (JUDGE_MODEL)
    const want = asked ?? (several ? pool?.models[0] : undefined);
    const endpoints = pool && want && several ? endpointsFor(pool, want) : (pool?.endpoints ?? []);
    if (endpoints.length === 0) return { error: `no endpoint of the judge pool serves the model ${want}` };
    const configured = want ?? endpoints[0]?.model;
    if (endpoints.length === 1 && configured) return { model: configured };
    const key = want ?? "";
    let check = this.checking.get(key);
    if (!check) {
      check = this.health
        .listModels(endpoints.map((e) => e.url))
        .then((listed) => {
          const checked = poolModel(
            endpoints.map((e) => ({ url: e.url, model: want ?? e.model })),
            listed,
          );
          if ("model" in checked && !want && !several) this.health.model = checked.model;
          return "model" in checked ? { model: checked.model } : checked;
        })
        .finally(() => this.checking.delete(key));
      this.checking.set(key, check);
    }
    return check;
  }

  /** Each endpoint of the pool: cap, load, counts, latency and circuit (GET /v1/judges). */
  async judges(): Promise<JudgesView> {
    const now = Date.now();
    const stats = this.gate.stats();
    const inFlight = new Map(stats.endpoints.map((e) => [e.id, e.inUse]));
    return {
      model: this.health.model,
      models: this.config.pool?.models ?? [],
      capacity: stats.cap,
      inFlight: stats.inUse,
      waiting: stats.waiting,
      admission: await this.admission(),
      endpoints: this.health.view((url) => inFlight.get(url) ?? 0, now),
    };
  }

  /** An evaluation ended (finished or cancelled): its permits, waiters and place go, and the next starts. */
  async forget(owner: string): Promise<void> {
    const { granted, dropped } = this.gate.forget(owner, Date.now());
    this.settle(granted, dropped);
    if (this.queue.remove(owner)) this.admit();
  }

  private releaseAll(leases: Released[]): void {
    const now = Date.now();
    for (const { lease, outcome } of leases) {
      this.estimates.delete(lease);
      const endpoint = this.gate.endpointOf(lease);
      const granted = this.gate.grantedAt(lease);
      this.settle(this.gate.release(lease, now), []);
      if (granted === undefined || endpoint === undefined) continue; // expired or dropped: no word on the endpoint
      if (outcome === "ok") {
        this.heldMs.push(now - granted);
        if (this.heldMs.length > PACE_SAMPLES) this.heldMs.shift();
      }
      // after the release: a circuit that opens now sends the waiters it would have had elsewhere
      this.health.record(endpoint, outcome, now - granted, now);
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

  private settle(granted: Grant[], dropped: { id: string }[]): void {
    for (const w of granted) {
      this.pending.get(w.id)?.(
        w.skipped ? { skipped: w.models?.[0] ?? "" } : { lease: w.id, endpoint: w.endpoint, ...(w.model ? { model: w.model } : {}) },
      );
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
