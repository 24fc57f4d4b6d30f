import { DurableObject } from "cloudflare:workers";
import { readConfig, type ServiceConfig } from "../src/config";
import { methodCore } from "../src/core/methods";
import type { OpenCall } from "../src/core/types";
import { database, markRunning, writeOutcome } from "../src/db/evaluations";
import type { AppEnv } from "../src/env";
import type { EvaluationInput, Outcome, Status, Usage } from "../src/evaluation";
import { judgeRequest, promptShape, promptTokenSplit, readReply } from "../src/judge/ask";
import { completeWithRetry, discoverModel, type JudgeConfig, JudgeError } from "../src/judge/client";
import { Semaphore } from "../src/gate/semaphore";
import type { JudgeGate } from "./judge-gate";
import { type Counter, TournamentStore, type StoredResult } from "./store";

export interface Snapshot {
  status: Status;
  error: string | null;
  outcome: Outcome;
  usage: Usage;
}

/** A match that could not be scored; it fails the evaluation with a message that names the match. */
class MatchFailure extends Error {}

/**
 * One evaluation (one question) and its tournament. Driven by its alarm: `start` saves the input and
 * sets the alarm; the alarm plays every open call, recording each judge result in SQLite before the
 * tournament advances. If the object is evicted or the process restarts mid-way, the alarm runs again
 * (the runtime retries an alarm that did not finish), replays the recorded results and sends only the
 * calls that have none.
 */
export class Tournament extends DurableObject<AppEnv> {
  private readonly store: TournamentStore;
  private readonly config: ServiceConfig;
  private running: Promise<void> | null = null;
  private model: string | null = null;
  /** This instance's requests at the judge, kept under the platform's per-invocation connection limit. */
  private readonly outbound: Semaphore;
  /** One life of this object, so the gate can drop permits a crashed earlier life still held. */
  private readonly life = crypto.randomUUID();
  /** Leases done with, to go back to the gate with the next acquire (or on their own, a moment later). */
  private toRelease: string[] = [];
  private releaseTimer: ReturnType<typeof setTimeout> | null = null;
  /** Releases sent but not yet confirmed; the pump waits for them before it ends. */
  private readonly releasing = new Set<Promise<void>>();
  /** The gate's stub, made once: idFromName hashes the name, which is not free on every call. */
  private gateStub: { baseUrl: string; stub: DurableObjectStub<JudgeGate> } | null = null;

  constructor(ctx: DurableObjectState, env: AppEnv) {
    super(ctx, env);
    this.store = new TournamentStore(ctx.storage.sql);
    this.config = readConfig(env);
    this.outbound = new Semaphore(this.config.maxInFlight);
  }

  /** Idempotent: a second start of the same evaluation changes nothing. */
  async start(input: EvaluationInput): Promise<void> {
    if (this.store.status()) return;
    this.ctx.storage.transactionSync(() => this.store.create(input, Date.now()));
    await this.ctx.storage.setAlarm(Date.now() + this.config.watchdogMs);
    // The pump starts now, not when an alarm set for now fires (tens of ms on the way to the first judge
    // call); the watchdog alarm set above resumes it should it die or fail.
    this.running ??= this.run()
      .catch((err: unknown) => console.error("tournament pump failed; the watchdog alarm retries", input.id, err))
      .finally(() => (this.running = null));
  }

  async snapshot(): Promise<Snapshot | null> {
    const input = this.store.input();
    const status = this.store.status();
    if (!input || !status) return null;
    const results = this.store.results();
    return { status: status.status, error: status.error, outcome: this.outcome(input, this.replay(input, results), results), usage: this.usage(results) };
  }

  async alarm(): Promise<void> {
    // The next alarm is set before any work: if this object dies mid-tournament (eviction, a crash,
    // `wrangler dev` stopped), that alarm brings it back to replay and carry on.
    await this.ctx.storage.setAlarm(Date.now() + this.config.watchdogMs);
    // one pump per object: a second alarm while it runs waits for it rather than sending calls twice
    this.running ??= this.run().finally(() => (this.running = null));
    await this.running;
  }

  private async run(): Promise<void> {
    const input = this.store.input();
    const status = this.store.status();
    if (!input || !status || status.status === "completed" || status.status === "failed") {
      await this.ctx.storage.deleteAlarm();
      return;
    }
    // D1 learns that the evaluation runs while its first calls are already out: D1 stays off the path
    // of the judge calls (markRunning only moves a queued row, so it can never undo a final status)
    let marked: Promise<unknown> = Promise.resolve();
    if (status.status === "queued") {
      this.store.setStatus("running");
      marked = markRunning(database(this.env.DB), input.id, Date.now()).catch((err: unknown) => console.error("markRunning failed", input.id, err));
    }

    const method = methodCore(input.method);
    let state = this.replay(input, this.store.results());
    let failure: string | null = null;
    try {
      const judge = await this.judge(input);
      const inFlight = new Map<string, Promise<void>>();
      const launch = () => {
        if (failure) return;
        for (const call of method.openCalls(state)) {
          const key = `${call.match}.${call.call}`;
          if (inFlight.has(key)) continue;
          const played = this.play(input, judge, call).then(
            ({ result, tokens }) => {
              state = method.record(state, result.match, result.call, result.scores);
              // The calls this result opens go out first, the result is written right after, in this
              // same turn: a storage write holds back every message the object sends until it is
              // committed, and the next judge call must not wait for it. Should the object die before
              // the commit, replay asks this call again and the opened calls are sent again: a
              // recorded result is still never asked twice.
              launch();
              this.store.saveResult(result);
              this.store.addAll(tokens);
            },
            (err: unknown) => {
              failure ??= err instanceof MatchFailure || err instanceof JudgeError ? err.message : `internal error: ${String(err)}`;
            },
          );
          inFlight.set(
            key,
            played.finally(() => {
              inFlight.delete(key);
              launch();
            }),
          );
        }
      };
      launch();
      while (inFlight.size > 0) await Promise.race(inFlight.values());
      if (this.releaseTimer) clearTimeout(this.releaseTimer);
      this.flushReleases();
      await Promise.allSettled(this.releasing);
    } catch (err) {
      failure ??= err instanceof JudgeError ? err.message : `internal error: ${String(err)}`;
    }

    await marked;
    if (!failure && !method.isFinished(state)) return; // nothing left to send yet; no method stops like this
    const finalResults = this.store.results();
    const outcome = this.outcome(input, state, finalResults);
    const final = failure ? ("failed" as const) : ("completed" as const);
    // D1 first: if that write fails the alarm throws, is retried, and writes the same outcome again
    await writeOutcome(database(this.env.DB), input, { status: final, error: failure, outcome, usage: this.usage(finalResults), now: Date.now() });
    this.store.setStatus(final, failure);
    await this.ctx.storage.deleteAlarm();
  }

  /**
   * One judge call, retried on transport faults and asked again when its reply cannot be parsed. The
   * tokens of the answered attempt come back with the result, for the caller to store with it.
   */
  private async play(input: EvaluationInput, judge: JudgeConfig, call: OpenCall): Promise<{ result: StoredResult; tokens: Partial<Record<Counter, number>> }> {
    const request = judgeRequest(input, call);
    const shape = promptShape(input, call);
    let lastReason = "";
    for (let ask = 1; ask <= this.config.parseAttempts; ask++) {
      const completion = await completeWithRetry(judge, request, {
        onRetry: () => this.store.add("retries", 1),
        around: (attempt) => this.withPermit(input.id, judge.baseUrl, attempt),
      }).catch((err: JudgeError) => {
        throw new MatchFailure(`${describe(call)}: ${err.message}`);
      });
      const tokens = promptTokenSplit(completion.promptTokens, shape);
      const used = { promptTokens: tokens.promptTokens, sharedPrefixTokens: tokens.sharedPrefixTokens, completionTokens: completion.completionTokens };
      const parsed = readReply(input, call, completion.text);
      if (parsed.ok) {
        const result = { match: call.match, call: call.call, scores: parsed.value, raw: completion.text, promptTokens: completion.promptTokens, completionTokens: completion.completionTokens };
        return { result, tokens: used };
      }
      this.store.addAll(used); // an unreadable reply still cost its tokens
      this.store.add("parseFailures", 1);
      lastReason = `${parsed.reason}; reply: ${JSON.stringify(completion.text.slice(0, 200))}`;
    }
    throw new MatchFailure(`${describe(call)}: the judge's reply could not be parsed after ${this.config.parseAttempts} attempts (${lastReason})`);
  }

  /**
   * One request to the judge under both caps: this object's own (connections per invocation), then the
   * endpoint's JudgeGate (requests open at the judge, fair between evaluations). The permit is held for
   * the request only, never across a retry's backoff.
   */
  private withPermit<T>(evaluation: string, baseUrl: string, attempt: () => Promise<T>): Promise<T> {
    return this.outbound.use(async () => {
      if (this.gateStub?.baseUrl !== baseUrl) this.gateStub = { baseUrl, stub: this.env.JUDGE_GATE.get(this.env.JUDGE_GATE.idFromName(baseUrl)) };
      const gate = this.gateStub.stub;
      let lease: string;
      try {
        lease = await gate.acquire(evaluation, this.life, this.toRelease.splice(0));
      } catch (err) {
        throw new JudgeError(`judge gate unavailable: ${(err as Error).message}`, true);
      }
      try {
        return await attempt();
      } finally {
        // The permit goes back with the next acquire, which a finished call usually triggers within the
        // same turn; if none does, on its own right after this turn.
        this.toRelease.push(lease);
        this.releaseTimer ??= setTimeout(() => this.flushReleases(), 0);
      }
    });
  }

  private flushReleases(): void {
    this.releaseTimer = null;
    const leases = this.toRelease.splice(0);
    if (leases.length === 0 || !this.gateStub) return;
    const released = this.gateStub.stub.release(...leases).catch((err: unknown) => console.error("judge gate release failed", err));
    this.releasing.add(released);
    void released.finally(() => this.releasing.delete(released));
  }

  private async judge(input: EvaluationInput): Promise<JudgeConfig> {
    const base = this.config.judge;
    if (!base.baseUrl) throw new JudgeError("no judge is configured: set JUDGE_BASE_URL", false);
    const model = input.judge.model ?? base.model ?? (this.model ??= await discoverModel(base));
    return { ...base, model };
  }

  /** The method's state rebuilt from the recorded results: the only tournament state there is. */
  private replay(input: EvaluationInput, results: StoredResult[]): unknown {
    const method = methodCore(input.method);
    let state = method.start(
      input.answers.map((a) => a.id),
      { seed: input.seed, debias: input.debias, pairing: input.pairing ?? "round" },
    );
    for (const r of results) state = method.record(state, r.match, r.call, r.scores);
    return state;
  }

  private outcome(input: EvaluationInput, state: unknown, results: StoredResult[]): Outcome {
    return methodCore(input.method).outcome(state, new Map(results.map((r) => [`${r.match}.${r.call}`, r.raw])));
  }

  private usage(results: StoredResult[]): Usage {
    const c = this.store.counters();
    return {
      judgeCalls: results.length,
      promptTokens: c.promptTokens,
      completionTokens: c.completionTokens,
      retries: c.retries,
      parseFailures: c.parseFailures,
      sharedPrefixTokens: c.sharedPrefixTokens,
      sharedPrefixShare: shareOf(c.sharedPrefixTokens, c.promptTokens),
    };
  }
}

function shareOf(part: number, whole: number): number {
  return whole > 0 ? Math.round((1000 * part) / whole) / 1000 : 0;
}

function describe(call: OpenCall): string {
  return `match ${call.match + 1} (round ${call.round}, ${call.order.join(" vs ")}, call ${call.call + 1})`;
}
