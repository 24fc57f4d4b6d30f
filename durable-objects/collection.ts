import { metered } from "../src/platform/meter";
import { DurableObject } from "cloudflare:workers";
import { readConfig } from "../src/platform/config";
import { afterGradingFailure, type GradingRetry, spelledDuration } from "../src/collections/grading-retry";
import { collectionById, insertSubmission, markNotGraded, submissions, updateCollection } from "../src/db/collections";
import { hashToken, newToken } from "../src/platform/tokens";
import { EventStreams } from "./event-streams";
import { ensureSchema, type ObjectSchema } from "./schema";
import { startGrading } from "../src/evaluations/grade-collection";
import { database } from "../src/db/database";
import { insertLearnerAnswer, learnerOf, learnerSubmission, replaceLearnerAnswer } from "../src/db/lti-links";

export interface CollectionConfig {
  id: string;
  tenant: string;
  /** Unix ms, or null for a collection that closes only by count or by hand. */
  deadline: number | null;
  /** It closes when this many answers are in (never more than an evaluation takes). */
  maxAnswers: number;
}

export type Submitted =
  | { ok: true; answerId: string; receiptToken: string }
  | { ok: false; reason: "closed" }
  | { ok: false; reason: "rate-limited"; retryAfterSeconds: number };

/** A learner's answer through their course (LTI): a first answer has a receipt token, shown once. */
export type LearnerAnswered =
  | { ok: true; answerId: string; receiptToken: string | null; replaced: boolean }
  | { ok: false; reason: "closed" };

export type CloseReason = "deadline" | "maxAnswers" | "owner";

/** The collection's tables, by version (see ./schema.ts). */
export const collectionSchema: ObjectSchema = {
  name: "collection",
  migrations: [
    [
      "CREATE TABLE IF NOT EXISTS config (id TEXT PRIMARY KEY, json TEXT NOT NULL)",
      `CREATE TABLE IF NOT EXISTS state (
        id INTEGER PRIMARY KEY CHECK (id = 1), status TEXT NOT NULL, accepted INTEGER NOT NULL, graded INTEGER NOT NULL)`,
      "CREATE TABLE IF NOT EXISTS hit (client TEXT NOT NULL, at INTEGER NOT NULL)",
    ],
  ],
};

/**
 * One collection: the single writer of its answers. Submissions go through it one at a time, so the
 * count, the closing rule and the per-client rate limit hold exactly under concurrency. Its alarm
 * closes it at the deadline; once closed, the alarm grades it (tried again until the evaluation is
 * created or the grading deadline passes), through the same code as POST /v1/evaluations.
 */
export class Collection extends DurableObject<Env> {
  private readonly sql: SqlStorage;
  /** The owner's pages watching answers arrive (GET /v1/collections/:id/events). */
  private readonly watchers = new EventStreams();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, metered(env));
    this.sql = ctx.storage.sql;
    ensureSchema(ctx.storage, collectionSchema);
  }

  /** Idempotent. */
  async open(config: CollectionConfig): Promise<void> {
    if (this.config()) return;
    this.ctx.storage.transactionSync(() => {
      this.sql.exec("INSERT INTO config (id, json) VALUES (?, ?)", config.id, JSON.stringify(config));
      this.sql.exec("INSERT INTO state (id, status, accepted, graded) VALUES (1, 'open', 0, 0)");
    });
    if (config.deadline !== null) await this.ctx.storage.setAlarm(config.deadline);
  }

  async submit(answer: { text: string; name: string | null; client: string }): Promise<Submitted> {
    return this.ctx.blockConcurrencyWhile(async () => {
      const now = Date.now();
      const open = await this.openAt(now);
      if (!open) return { ok: false, reason: "closed" } as const;
      const { config, state } = open;
      const { limit, windowMs } = readConfig(this.env).collectionSubmit;
      this.sql.exec("DELETE FROM hit WHERE at <= ?", now - windowMs);
      const hits = this.sql.exec<{ at: number }>("SELECT at FROM hit WHERE client = ? ORDER BY at", answer.client).toArray();
      if (hits.length >= limit) {
        return {
          ok: false,
          reason: "rate-limited",
          retryAfterSeconds: Math.max(1, Math.ceil((hits[0].at + windowMs - now) / 1000)),
        } as const;
      }

      const position = state.accepted + 1;
      const answerId = `a${position}`;
      const receiptToken = newToken("rc_");
      // D1 first: if it fails nothing was counted and the submitter is told so
      await insertSubmission(database(this.env.DB), {
        collectionId: config.id,
        answerId,
        position,
        text: answer.text,
        name: answer.name,
        receiptHash: await hashToken(receiptToken),
        createdAt: now,
      });
      this.sql.exec("UPDATE state SET accepted = ?", position);
      this.sql.exec("INSERT INTO hit (client, at) VALUES (?, ?)", answer.client, now);
      this.watchers.send("answer", {
        answerCount: position,
        answer: arrived({ answerId, name: answer.name, text: answer.text, createdAt: now }),
      });
      if (position >= config.maxAnswers) await this.closeNow("maxAnswers");
      return { ok: true, answerId, receiptToken } as const;
    });
  }

  /**
   * A learner's answer, known by their LTI `sub`: their first becomes a new answer (counted, and closing
   * the collection at its maxAnswers, as any); a later one replaces its text under the same answer id and
   * receipt, until the collection closes. No rate limit: the platform's signed launch says who they are,
   * and each has one answer. The owner's live page is told of both (`answer`, `changed`).
   */
  async answerAs(learner: { sub: string; platformId: string; name: string | null; text: string }): Promise<LearnerAnswered> {
    return this.ctx.blockConcurrencyWhile(async () => {
      const now = Date.now();
      const open = await this.openAt(now);
      if (!open) return { ok: false, reason: "closed" } as const;
      const { config, state } = open;
      const db = database(this.env.DB);
      const known = await learnerOf(db, config.id, learner.sub);
      const given = known?.answerId ? await learnerSubmission(db, config.id, known.answerId) : null;
      if (given) {
        await replaceLearnerAnswer(db, {
          collectionId: config.id,
          answerId: given.answerId,
          sub: learner.sub,
          text: learner.text,
          name: learner.name,
          at: now,
        });
        this.watchers.send("changed", {
          answerCount: state.accepted,
          answer: arrived({ answerId: given.answerId, name: learner.name, text: learner.text, createdAt: now }),
        });
        return { ok: true, answerId: given.answerId, receiptToken: null, replaced: true } as const;
      }
      const position = state.accepted + 1;
      const answerId = `a${position}`;
      const receiptToken = newToken("rc_");
      const submission = {
        collectionId: config.id,
        answerId,
        position,
        text: learner.text,
        name: learner.name,
        receiptHash: await hashToken(receiptToken),
        createdAt: now,
      };
      await insertLearnerAnswer(db, submission, { sub: learner.sub, platformId: learner.platformId, name: learner.name });
      this.sql.exec("UPDATE state SET accepted = ?", position);
      this.watchers.send("answer", {
        answerCount: position,
        answer: arrived({ answerId, name: learner.name, text: learner.text, createdAt: now }),
      });
      if (position >= config.maxAnswers) await this.closeNow("maxAnswers");
      return { ok: true, answerId, receiptToken, replaced: false } as const;
    });
  }

  /**
   * The answers as they arrive, as server-sent events: a `snapshot` of those in so far, an `answer` per
   * new one, `closed` when it closes, then `graded` (its evaluation's id: its own stream follows the
   * grading) or `failed` (why it cannot be graded), after which the stream ends. The Worker checks the
   * key and the owner before it asks.
   */
  /** The settings and state while the collection takes answers at `now`; null once closed (a deadline passed closes it here). */
  private async openAt(now: number) {
    const config = this.config();
    const state = this.state();
    if (!config || !state || state.status !== "open") return null;
    if (config.deadline !== null && now >= config.deadline) {
      await this.closeNow("deadline");
      return null;
    }
    return { config, state };
  }

  async watch(): Promise<Response> {
    const config = this.config();
    const state = this.state();
    const row = config ? await collectionById(database(this.env.DB), config.id) : null;
    if (!config || !state || !row) return this.watchers.open([["end", { status: "unknown" }]], true);
    const answers = (await submissions(database(this.env.DB), config.id)).map(arrived);
    const snapshot: [string, unknown] = ["snapshot", { status: row.status, answerCount: answers.length, answers }];
    if (row.status === "failed") return this.watchers.open([snapshot, ["failed", { error: row.error }]], true);
    if (row.evaluationId) return this.watchers.open([snapshot, ["graded", { evaluation: row.evaluationId }]], true);
    return this.watchers.open([snapshot]);
  }

  /**
   * Erases the collection from the object (POST /v1/collections/:id/erase): the owner's live pages are
   * told, the alarm cleared (it closes and grades no more) and the storage deleted whole, the rate
   * limit's client addresses with it. Idempotent; D1 is the erasure's business.
   */
  async erase(): Promise<void> {
    await this.ctx.blockConcurrencyWhile(async () => {
      this.watchers.end("erased", {});
      await this.ctx.storage.deleteAlarm();
      await this.ctx.storage.deleteAll();
      ensureSchema(this.ctx.storage, collectionSchema);
    });
  }

  /** Closes it now (a second close changes nothing); grading starts in the alarm. */
  async close(by: CloseReason): Promise<"closed"> {
    await this.ctx.blockConcurrencyWhile(async () => {
      if (this.state()?.status === "open") await this.closeNow(by);
    });
    return "closed";
  }

  async alarm(): Promise<void> {
    const config = this.config();
    const state = this.state();
    if (!config || !state) return;
    if (state.status === "open") {
      if (config.deadline === null || Date.now() < config.deadline) return;
      await this.close("deadline");
    }
    if (!this.state()!.graded) await this.grade(config);
  }

  private async closeNow(by: CloseReason): Promise<void> {
    const config = this.config()!;
    await updateCollection(database(this.env.DB), config.id, { status: "closed", closedAt: Date.now(), closedBy: by });
    this.sql.exec("UPDATE state SET status = 'closed'");
    this.watchers.send("closed", { closedBy: by });
    await this.ctx.storage.setAlarm(Date.now());
  }

  /**
   * The collected answers become an evaluation, with an id derived from the collection's so that a
   * retried alarm finds the one it made instead of making a second. A closing that cannot grade ends
   * with its reason on the collection (status `failed`) and so on the receipts: at once when trying
   * again cannot help, after the grading deadline when it might (grading-retry.ts).
   */
  private async grade(config: CollectionConfig): Promise<void> {
    const db = database(this.env.DB);
    const row = await collectionById(db, config.id);
    if (!row) return;
    const started = await startGrading(this.env, config, row);
    if (started.kind === "started") {
      await updateCollection(db, config.id, { evaluationId: started.evaluationId, error: null });
      this.watchers.end("graded", { evaluation: started.evaluationId });
    } else if (started.kind === "refused") {
      await markNotGraded(db, config.id, started.reason);
      this.watchers.end("failed", { error: started.reason });
    } else {
      const policy: GradingRetry = readConfig(this.env).collectionGrading;
      const verdict = afterGradingFailure(policy, { closedAt: row.closedAt ?? Date.now(), now: Date.now() });
      if (verdict.kind === "retry") {
        await this.ctx.storage.setAlarm(verdict.at);
        return;
      }
      console.error(`collection ${config.id} not graded: ${started.cause}`);
      const reason = `grading could not start within ${spelledDuration(policy.deadlineMs)} of closing: ${started.reason}`;
      await markNotGraded(db, config.id, reason);
      this.watchers.end("failed", { error: reason });
    }
    this.sql.exec("UPDATE state SET graded = 1");
  }

  private config(): CollectionConfig | null {
    const row = this.sql.exec<{ json: string }>("SELECT json FROM config").toArray()[0];
    return row ? JSON.parse(row.json) : null;
  }

  private state(): { status: "open" | "closed"; accepted: number; graded: number } | null {
    return (
      this.sql
        .exec<{ status: "open" | "closed"; accepted: number; graded: number }>("SELECT status, accepted, graded FROM state")
        .toArray()[0] ?? null
    );
  }
}

/** An answer as the owner's page is told of it. */
function arrived(a: { answerId: string; name: string | null; text: string; createdAt: number }) {
  return { id: a.answerId, name: a.name, text: a.text, submittedAt: new Date(a.createdAt).toISOString() };
}
