import { metered } from "../src/platform/meter";
import { DurableObject } from "cloudflare:workers";
import { readConfig, type ServiceConfig } from "../src/platform/config";
import { methodCore } from "../src/core/methods";
import type { OpenCall } from "../src/core/types";
import { loadInput, markRunning } from "../src/db/evaluations";
import { database } from "../src/db/database";
import type { EvaluationInput, Status, Usage } from "../src/model/evaluation";
import { type Final, finishEvaluation, leaveGate } from "../src/evaluations/finish";
import { detailOf, outcomeOf, replay, usageSoFar, viewOf } from "../src/evaluations/played";
import { playedPart, stateVersion } from "../src/evaluations/live-read";
import { backoffDelay } from "../src/judge/backoff";
import { type JudgeConfig, JudgeError } from "../src/judge/client";
import { HeaderWait } from "../src/judge/connections";
import { failureMessage, type PlayHooks, playCall } from "../src/judge/play";
import { MatchJudges } from "../src/core/match-judges";
import { firstState, unplayedOutcome } from "../src/evaluations/first-state";
import type { LiveView } from "../src/live/view";
import { JudgePermits } from "./permits";
import { judgeGateStub } from "../src/platform/stubs";
import { TournamentStore, tournamentSchema } from "./store";
import { ensureSchema } from "./schema";
import { JudgeWords } from "./judge-words";
import { LiveViewers } from "./viewers";
import { type LiveRead, ResultCopies } from "./result-copies";
import { askFeedback } from "../src/judge/feedback-call";
import { currentFeedback, withFeedback } from "../src/teacher/feedback";
import type { JudgeFeedback } from "../src/model/evaluation";
import { playAll } from "./feedback-round";

/**
 * Calls prepared at once per evaluation. The permits decide how many are sent; this only bounds the
 * prompts built ahead of them (a round-robin of 64 answers has 4,032 calls open from the start).
 */
const LAUNCH_AHEAD = 64;

/**
 * One evaluation (one question) and its tournament. The object is made when the evaluation's turn to
 * run comes: the JudgeGate calls `start`, which copies the input from D1 into this object's SQLite and
 * starts the pump. The pump plays every open call, recording each judge result in SQLite before the
 * tournament advances; a watchdog alarm stands by. If the object is evicted or the process restarts
 * mid-way, the alarm runs again (the runtime retries an alarm that did not finish), replays the recorded
 * results and sends only the calls that have none. When the evaluation ends, the gate is told, so the
 * next queued one starts.
 */
export class Tournament extends DurableObject<Env> {
  private readonly store: TournamentStore;
  private readonly config: ServiceConfig;
  private running: Promise<void> | null = null;
  /** The people watching this evaluation live (GET /v1/evaluations/:id/events). */
  private readonly viewers = new LiveViewers();
  /** The judge's words of the calls in flight, as they are generated. */
  private readonly words = new JudgeWords((updates) => this.viewers.matchText(updates));
  /**
   * When this life's run began. Its first TOURNAMENT_LIVE_GRACE_MS (5 s) read the judge's words as if
   * watched: the web page that posted an evaluation opens its live view a moment later, and a call
   * already reading its reply in large pieces (QUIET_READ_BYTES) would show that viewer nothing until
   * its next read.
   */
  private runStartedAt = 0;
  /** Aborted by `cancel`: every judge call in flight is abandoned and no retry is sent. */
  private readonly cancelled = new AbortController();
  /** Set once the outcome is being written: from then on the evaluation finishes, it cannot be cancelled. */
  private finishing = false;
  /** Permits to call the judge: this object's own cap and the endpoint's JudgeGate. */
  private readonly permits: JudgePermits;
  /** Cloudflare's six connections waiting for headers, kept here as on the platform (src/judge/connections.ts). */
  private readonly headerWait: HeaderWait;
  /** The input, read once: it never changes after `ensureInput`, and its answers are most of its size. */
  private inputRead: EvaluationInput | null = null;
  /** Erased while in memory: a request that raced the erasure must not copy the input from D1 again. */
  private erasedHere = false;
  /** The result as its readers get it: one copy per state, and each key's byte budget. */
  private copies: ResultCopies;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, metered(env));
    this.store = new TournamentStore(ctx.storage);
    this.config = readConfig(env);
    this.permits = new JudgePermits(this.env, this.config.maxInFlight, this.config.pool?.key ?? "", this.config.pool?.endpoints ?? []);
    this.headerWait = new HeaderWait(this.config.waitingForHeaders);
    this.copies = new ResultCopies(this.config.liveReadBudget);
  }

  /**
   * Runs evaluation `id` (the turn for it came at gate `gate`). Idempotent: a running evaluation carries
   * on, and one that has ended tells the gate again, in case its first word was lost. The gate is kept:
   * the end is told to the gate that counts the evaluation as running, which is no longer the configured
   * one once JUDGE_ENDPOINTS or JUDGE_BASE_URL has changed.
   */
  async start(id: string, gate?: string): Promise<void> {
    const input = await this.ensureInput(id);
    if (input && gate !== undefined && this.store.gate() !== gate) this.store.setGate(gate);
    const status = this.store.status()?.status;
    if (!input || status === "completed" || status === "failed") {
      await this.leaveGate(id);
      return;
    }
    await this.ctx.storage.setAlarm(Date.now() + this.config.watchdogMs);
    // The pump starts now, not when an alarm set for now fires (tens of ms on the way to the first judge
    // call); the watchdog alarm set above resumes it should it die or fail.
    this.running ??= this.run()
      .catch((err: unknown) => console.error("tournament pump failed; the watchdog alarm retries", id, err))
      .finally(() => (this.running = null));
  }

  /**
   * The input, copied from D1 into this object's SQLite the first time it is needed (to run, to cancel,
   * or for a viewer of a queued evaluation). Null if D1 has no such evaluation.
   */
  private async ensureInput(id: string): Promise<EvaluationInput | null> {
    if (this.store.status()) return this.store.input();
    const input = await loadInput(database(this.env.DB), id);
    if (!input || this.erasedHere) return null;
    // another request may have copied it while D1 answered
    if (!this.store.status()) this.ctx.storage.transactionSync(() => this.store.create(input, Date.now()));
    return this.store.input();
  }

  /**
   * Tells the gate this evaluation has ended (the one that started it, else the configured one); should
   * that fail, the gate's own alarm asks again.
   */
  private async leaveGate(id: string): Promise<void> {
    await leaveGate(this.env, this.store.gate() ?? this.config.pool?.key, id);
  }

  /**
   * The result as `GET /v1/evaluations/:id` shows it, but its head (the Worker adds it from D1), or null
   * if this object has no copy: see ResultCopies, which serialises it once per state and charges each
   * key's full reads of a running evaluation to its byte budget. `ifNoneMatch`: the reader's header;
   * `reader`: the API key's id.
   */
  async read(texts: boolean, ifNoneMatch?: string, reader?: string): Promise<LiveRead | null> {
    this.inputRead ??= this.store.input();
    const input = this.inputRead;
    const status = this.store.status();
    if (!input || !status) return null;
    const feedback = input.feedback === "judge" ? this.store.feedback() : [];
    const version = stateVersion(input.id, status.status, this.store.resultCount(), this.store.counters(), feedback.length);
    return this.copies.read({ version, status: status.status, texts, ifNoneMatch, reader, now: Date.now() }, () => {
      const results = this.store.results();
      const state = replay(input, results);
      const part = playedPart(input, {
        ...status,
        outcome: outcomeOf(input, state, results),
        usage: this.usage(results.length, input, state),
      });
      // the feedback as it arrives, after the tournament: every answer has the field, null until written
      return { ...part, answers: withFeedback(part.answers, input.feedback ?? "none", currentFeedback(feedback, [])) };
    });
  }

  /**
   * The evaluation as a server-sent event stream (see LiveViewers), or null if D1 has no such
   * evaluation. The Worker checks the key before it asks.
   */
  async events(id: string): Promise<Response | null> {
    await this.ensureInput(id);
    const view = this.view();
    return view ? this.viewers.open(view, this.words.current(), this.store.feedback().map(feedbackEvent)) : null;
  }

  /**
   * Cancels a queued or running evaluation: the status is set and every call in flight abandoned at once
   * (synchronously, so no result that arrives later is recorded), then D1 is told. Returns the status the
   * evaluation ends up with: "cancelled", or the final status if it had already finished.
   */
  async cancel(id: string): Promise<Status | null> {
    if (!(await this.ensureInput(id))) return null;
    if (this.finishing && this.running) await this.running;
    const now = this.store.status()!;
    if (now.status !== "queued" && now.status !== "running") return now.status;
    this.store.setStatus("cancelled", "cancelled by the client");
    this.cancelled.abort();
    // its requests still queued at the gate go at once, not when their leases would have expired, and
    // its place (queued or running) goes to the next evaluation
    await this.leaveGate(id);
    // if this write fails the watchdog alarm is still set, and `run` writes the cancellation on its next turn
    await this.writeCancelled();
    await this.ctx.storage.deleteAlarm();
    this.viewers.end("cancelled", "cancelled by the client");
    return "cancelled";
  }

  /**
   * Erases this evaluation from the object (POST …/erase): a running tournament is cancelled first (its
   * calls in flight abandoned, nothing more recorded, its place at the gate given up), its viewers
   * told, its alarm cleared and its storage deleted whole, and what it kept in memory (the serialised
   * result, the judge's words) dropped. Idempotent. D1 is the erasure's business, not the object's: the
   * outcome is not written as cancelled, since it is about to be deleted.
   */
  async erase(id: string): Promise<void> {
    this.erasedHere = true;
    this.cancelled.abort();
    if (this.running) await this.running.catch(() => {});
    await this.leaveGate(id);
    this.viewers.erased();
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
    // empty tables again, so that a later request (a racing `start`, which finds nothing in D1) reads none
    ensureSchema(this.ctx.storage, tournamentSchema);
    this.store.emptied();
    this.inputRead = null;
    this.copies = new ResultCopies(this.config.liveReadBudget);
    this.words.clear();
  }

  /** One person's answer removed from this ended evaluation (see TournamentStore.scrubAnswer); the copies in memory go. */
  async scrubAnswer(answerId: string, placeholder: string, matches: number[]): Promise<void> {
    if (!this.store.status()) return; // never copied here: nothing to remove
    this.ctx.storage.transactionSync(() => this.store.scrubAnswer(answerId, placeholder, matches));
    this.inputRead = null;
    this.copies = new ResultCopies(this.config.liveReadBudget);
  }

  private async writeCancelled(): Promise<void> {
    await finishEvaluation(this.env, this.store.input()!, this.final("cancelled", "cancelled by the client"));
  }

  /** The evaluation's end as `finishEvaluation` records it, from the results stored here. */
  private final(status: Final["status"], error: string | null, state?: unknown): Final {
    const input = this.store.input()!;
    const results = this.store.results();
    const played = state ?? replay(input, results);
    // an input that cannot start was never played, and its answers cannot be written back (see markEnded)
    const unplayed = played === null;
    return {
      status,
      error,
      outcome: outcomeOf(input, played, results),
      usage: this.usage(results.length, input, played),
      now: Date.now(),
      unplayed,
      feedback: this.store.feedback(),
    };
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
    this.runStartedAt = Date.now();
    const input = this.store.input();
    const status = this.store.status();
    if (!input || !status || status.status === "completed" || status.status === "failed") {
      await this.ctx.storage.deleteAlarm();
      if (input) await this.leaveGate(input.id);
      return;
    }
    if (status.status === "cancelled") {
      await this.writeCancelled();
      await this.ctx.storage.deleteAlarm();
      await this.leaveGate(input.id);
      return;
    }
    // an input the method refuses is refused on every try: the evaluation fails now, and its place goes
    const first = firstState(input);
    if (!first.ok) return this.failAtStart(input, first.reason);
    // D1 learns that the evaluation runs while its first calls are already out: D1 stays off the path
    // of the judge calls (markRunning only moves a queued row, so it can never undo a final status)
    let marked: Promise<unknown> = Promise.resolve();
    if (status.status === "queued") {
      this.store.setStatus("running");
      marked = markRunning(database(this.env.DB), input.id, Date.now()).catch((err: unknown) =>
        console.error("markRunning failed", input.id, err),
      );
      this.publish();
    }

    const method = methodCore(input.method);
    let state = first.state;
    let failure: string | null = null;
    try {
      // in the try: should the recorded results not replay, the evaluation fails rather than hangs
      const recorded = this.store.results();
      state = replay(input, recorded);
      const judge = await this.judge(input);
      const inFlight = new Map<string, Promise<void>>();
      // a panel in "cycle": each match held to one judge, its calls asked again of the next when it moves
      const judges = input.judge.panel && input.judge.panelMode !== "all" ? new MatchJudges(input.judge.panel, recorded) : null;
      const cycle = judges && {
        judges,
        onMove: (match: number) => {
          if (this.store.dropCalls(match, judges.judgeOf(match)) > 0) {
            state = replay(input, this.store.results());
            this.publish(state);
          }
          launch();
        },
      };
      const launch = () => {
        if (failure || this.cancelled.signal.aborted) return;
        for (const call of method.openCalls(state)) {
          if (inFlight.size >= LAUNCH_AHEAD) break; // the next finished call launches more
          const key = `${call.match}.${call.call}`;
          if (inFlight.has(key)) continue;
          const played = this.play(input, judge, call, cycle ?? undefined).then(
            ({ result, tokens }) => {
              this.words.done(result.match, result.call);
              if (this.cancelled.signal.aborted) return; // a reply that raced the cancellation is dropped
              // an answer from a judge its match has left, or to a call the move closed (adaptive): it
              // cost its tokens, and the call, where still open, is asked again of the match's judge
              if (judges && !judges.records(result, () => method.openCalls(state))) return this.store.addAll(tokens);
              state = method.record(state, result.match, result.call, result.scores, detailOf(result));
              // The calls this result opens go out first, the result is written right after, in this
              // same turn: a storage write holds back every message the object sends until it is
              // committed, and the next judge call must not wait for it. Should the object die before
              // the commit, replay asks this call again and the opened calls are sent again: a
              // recorded result is still never asked twice.
              launch();
              this.store.saveResult(result, tokens);
              this.publish(state);
            },
            (err: unknown) => {
              this.words.done(call.match, call.call);
              failure ??= failureMessage(err);
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
      // the grades are decided: each student's feedback next, the evaluation completes once it is written
      if (!failure && input.feedback === "judge" && method.isFinished(state) && !this.cancelled.signal.aborted)
        await this.writeFeedback(input, judge);
      await this.permits.settle();
    } catch (err) {
      failure ??= failureMessage(err);
    }

    await marked;
    if (this.cancelled.signal.aborted) return; // `cancel` wrote the outcome
    if (!failure && !method.isFinished(state)) return; // nothing left to send yet; no method stops like this
    this.finishing = true;
    const final = this.final(failure ? "failed" : "completed", failure, state);
    await this.end(input, final, state);
  }

  /**
   * One feedback call per answer that has none recorded (a restarted object asks only those), under the
   * same permits as the tournament's calls. Each is recorded as it ends, written or failed: a failed
   * one leaves its answer without feedback and never fails the evaluation.
   */
  private async writeFeedback(input: EvaluationInput, judge: JudgeConfig): Promise<void> {
    const done = new Set(this.store.feedback().map((f) => f.answerId));
    const pending = input.answers.map((a) => a.id).filter((id) => !done.has(id));
    await playAll(pending, LAUNCH_AHEAD, async (answerId) => {
      const { feedback, tokens } = await askFeedback(input, judge, answerId, {
        signal: this.cancelled.signal,
        parseAttempts: this.config.parseAttempts,
        // to an endpoint that serves the feedback's model, in a pool of several
        around: (attempt, avoid) => this.permits.use(input.id, attempt, Boolean(input.batchId), avoid, { models: [judge.model] }),
        pooled: (this.config.pool?.endpoints.length ?? 0) > 1,
        ...(this.config.judgePriority ? { priority: input.batchId ? 1 : 0 } : {}),
        fetch: this.headerWait.fetch,
        onRetry: () => this.store.add("retries", 1),
        onParseFailure: (spent) => {
          this.store.addAll(spent);
          this.store.add("parseFailures", 1);
        },
      });
      if (this.cancelled.signal.aborted) return; // a reply that raced the cancellation is dropped
      this.ctx.storage.transactionSync(() => {
        this.store.saveFeedback(feedback, tokens);
        this.store.addAll(tokens);
      });
      this.publish();
      if (this.viewers.watched) this.viewers.feedback(feedbackEvent(feedback));
    });
  }

  /**
   * Ends an evaluation whose input cannot start a tournament: failed with the reason, its answers as
   * posted, its place at the gate given to the next one. Never started again: `start` and the alarm
   * find it failed.
   */
  private async failAtStart(input: EvaluationInput, reason: string): Promise<void> {
    this.finishing = true;
    await this.end(input, {
      status: "failed",
      error: `the evaluation could not start: ${reason}`,
      outcome: unplayedOutcome(input),
      usage: this.usage(0),
      now: Date.now(),
      unplayed: true,
    });
  }

  /** The evaluation ends: recorded everywhere (finishEvaluation), then here, for viewers and the gate. */
  private async end(input: EvaluationInput, final: Final, state?: unknown): Promise<void> {
    // recorded everywhere before the status is set here: if this object dies in between, the alarm
    // runs again and finishes again, which changes nothing twice (see finishEvaluation)
    await finishEvaluation(this.env, input, final);
    this.store.setStatus(final.status, final.error);
    this.publish(state);
    this.viewers.end(final.status, final.error);
    await this.ctx.storage.deleteAlarm();
    await this.leaveGate(input.id);
    this.retire();
  }

  /**
   * Local workerd keeps a finished object and its open database for 70 s or more after its last
   * request, so the objects in memory grow with every question graded rather than stay at those
   * running. With TOURNAMENT_RETIRE_MS (npm start and the bench set it) the object is let go that long
   * after it ends, once its viewers have their last events; a later request makes a fresh instance from
   * storage. Cloudflare evicts idle objects by itself, so it is off there (and in the tests).
   */
  private retire(): void {
    const after = this.config.retireAfterMs;
    if (after > 0) setTimeout(() => this.ctx.abort("the evaluation has ended; this object is let go"), after);
  }

  /**
   * The bracket as viewers see it. From the running tournament's state when given (no replay per
   * result), else replayed from the stored results, so it is the same after a restart.
   */
  private view(state?: unknown): LiveView | null {
    const input = this.store.input();
    const status = this.store.status();
    if (!input || !status) return null;
    const played = state ?? replay(input, this.store.results());
    return viewOf(input, status, played, this.usage(this.store.resultCount(), input, played), this.store.feedback().length);
  }

  /** Pushes what changed to the viewers; nothing is computed when no one watches. */
  private publish(state?: unknown): void {
    if (!this.viewers.watched) return;
    const view = this.view(state);
    if (view) this.viewers.progress(view);
  }

  /** One call played to a score (src/judge/play.ts), under this object's permits, its costs counted here. */
  private play(input: EvaluationInput, judge: JudgeConfig, call: OpenCall, cycle?: PlayHooks["cycle"]) {
    return playCall(input, judge, call, {
      ...(cycle ? { cycle } : {}),
      signal: this.cancelled.signal,
      parseAttempts: this.config.parseAttempts,
      // a question of a batch waits at the gate behind interactive ones; a panel's call names its judges
      // (without one, the call's model: in a pool of several models, only its endpoints serve it)
      around: (attempt, avoid, route) =>
        this.permits.use(input.id, attempt, Boolean(input.batchId), avoid, route ?? { models: [judge.model] }),
      pooled: (this.config.pool?.endpoints.length ?? 0) > 1,
      ...(this.config.judgePriority ? { priority: input.batchId ? 1 : 0 } : {}),
      fetch: this.headerWait.fetch,
      onText: (text) => this.words.update(call.match, call.call, text),
      watched: () => this.viewers.watched || Date.now() - this.runStartedAt < this.config.liveGraceMs,
      // counted, not logged: a flaky judge would print a line per attempt; `usage.retries` and, should the
      // call give up, the evaluation's error say what happened
      onRetry: () => this.store.add("retries", 1),
      onParseFailure: (tokens) => {
        this.store.addAll(tokens); // an unreadable reply still cost its tokens
        this.store.add("parseFailures", 1);
      },
    });
  }

  /**
   * How this run's calls are made: the model is the pool's, checked once per run at the gate (every
   * endpoint must serve the same one, so that grades do not depend on which server answered); each
   * attempt's endpoint is its permit's.
   */
  private async judge(input: EvaluationInput): Promise<JudgeConfig> {
    const pool = this.config.pool;
    if (!pool) {
      if (this.config.poolErrorDetail) console.error(`the judge is misconfigured: ${this.config.poolErrorDetail}`);
      throw new JudgeError(this.config.poolError ?? "no judge is configured: set JUDGE_BASE_URL or JUDGE_ENDPOINTS", false);
    }
    const gate = judgeGateStub(this.env, pool.key);
    const { retryBaseMs, retryCapMs, deadlineMs } = this.config.judge;
    const since = Date.now();
    // with the whole pool down, the run waits for it as its calls would, until JUDGE_DEADLINE_MS
    for (let attempt = 1; ; attempt++) {
      const checked = await this.modelsServed(gate, input);
      // the max_tokens fixed when the evaluation was made (a rerun sends what its original sent)
      if ("model" in checked)
        return {
          ...this.config.judge,
          baseUrl: pool.endpoints[0].url,
          model: checked.model,
          maxTokens: input.judge.maxTokens ?? this.config.judge.maxTokens,
        };
      const delay = backoffDelay(attempt, retryBaseMs, retryCapMs);
      if (!checked.unanswered || Date.now() - since + delay > deadlineMs || this.cancelled.signal.aborted)
        throw new JudgeError(checked.error, false);
      await new Promise((wake) => setTimeout(wake, delay));
    }
  }

  /**
   * The model the run's calls name (the pool's, or `judge.model`), checked at the gate; with a panel,
   * every member is checked (at the endpoints that serve it, in a pool of several models), and the
   * first is the one the feedback calls go to. The first member the pool does not serve is the error,
   * naming it.
   */
  private async modelsServed(
    gate: ReturnType<typeof judgeGateStub>,
    input: EvaluationInput,
  ): Promise<{ model: string } | { error: string; unanswered?: true }> {
    const panel = input.judge.panel;
    if (!panel) return gate.poolModel(input.judge.model ?? undefined);
    for (const member of panel) {
      const checked = await gate.poolModel(member);
      if (!("model" in checked)) return { ...checked, error: `judge.panel: ${checked.error}` };
    }
    return { model: panel[0] };
  }

  /** The usage so far, from this object's counters (see usageSoFar). */
  private usage(judgeCalls: number, input?: EvaluationInput, state?: unknown): Usage {
    return usageSoFar(this.store.counters(), judgeCalls, input, state, this.store.feedbackCalls());
  }
}

/** A recorded feedback as the live stream sends it. */
function feedbackEvent(f: JudgeFeedback) {
  return {
    answerId: f.answerId,
    feedback: f.text !== null ? { text: f.text, from: "judge" as const, editedAt: new Date(f.at).toISOString() } : null,
    ...(f.error ? { error: f.error } : {}),
  };
}
