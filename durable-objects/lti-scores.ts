import { DurableObject } from "cloudflare:workers";
import type { LtiScoreState } from "../src/contract/lti-passback";
import { type PostOutcome, postScore } from "../src/evaluations/lti-score-post";
import { printable } from "../src/lti/access-token";
import { afterScorePost, type GradeState, type LatestGrade, planScores, scoreBody, scoresUrl } from "../src/lti/scores";
import { readConfig } from "../src/platform/config";
import { ensureSchema, type ObjectSchema } from "./schema";

/** What a sync asks: the grade each LTI learner of the collection should have in the gradebook now. */
export interface ScoreSync {
  platformId: string;
  lineItemUrl: string;
  /** The scopes the token is asked for (the passback's, as far as the platform grants them). */
  scopes: string[];
  scores: { sub: string; answerId: string; state: GradeState }[];
}

/** One version of a learner's score, as the delivery log shows it (src/contract/lti-passback.ts). */
export interface ScoreVersionView {
  version: number;
  state: LtiScoreState;
  gradingProgress: "FullyGraded" | "PendingManual" | "Pending";
  scoreGiven: number | null;
  scoreMaximum: number | null;
  timestamp: string;
  nextAttemptAt: string | null;
  attempts: { n: number; at: string; status: number | null; error: string | null }[];
}

/** One learner's delivery log: every version queued for them, oldest first. */
export interface LearnerScores {
  sub: string;
  answerId: string;
  versions: ScoreVersionView[];
}

/** Posts one alarm makes at most, and at once. */
const POSTS_PER_ALARM = 60;
const POSTS_AT_ONCE = 6;

/** The queue's tables, by version (see ./schema.ts). */
export const ltiScoresSchema: ObjectSchema = {
  name: "lti-scores",
  migrations: [
    [
      // the last version queued for each learner: what a sync compares the grade with
      `CREATE TABLE IF NOT EXISTS grade (
        sub TEXT PRIMARY KEY, version INTEGER NOT NULL, key TEXT NOT NULL, timestamp INTEGER NOT NULL)`,
      `CREATE TABLE IF NOT EXISTS score (
        sub TEXT NOT NULL, version INTEGER NOT NULL, answer_id TEXT NOT NULL, platform_id TEXT NOT NULL,
        url TEXT NOT NULL, scopes TEXT NOT NULL, body TEXT NOT NULL, state TEXT NOT NULL,
        created_at INTEGER NOT NULL, next_at INTEGER, attempts INTEGER NOT NULL, PRIMARY KEY (sub, version))`,
      "CREATE INDEX IF NOT EXISTS score_due ON score (state, next_at)",
      `CREATE TABLE IF NOT EXISTS attempt (
        sub TEXT NOT NULL, version INTEGER NOT NULL, n INTEGER NOT NULL, at INTEGER NOT NULL, status INTEGER,
        error TEXT, duration_ms INTEGER NOT NULL, PRIMARY KEY (sub, version, n))`,
    ],
  ],
};

type ScoreRow = {
  sub: string;
  version: number;
  answer_id: string;
  platform_id: string;
  url: string;
  scopes: string;
  body: string;
  state: LtiScoreState;
  created_at: number;
  next_at: number | null;
  attempts: number;
};

/**
 * The grade passback queue of one collection (LTI AGS scores), in the object's own SQLite and driven by
 * its alarm, as the webhook queue is: a restart loses nothing. A sync queues one version per learner
 * whose grade changed since the last version queued (src/lti/scores.ts `planScores`), so the same
 * grade is never queued twice; a version not yet posted when a newer one comes is superseded, not
 * sent. Each version is posted until the platform takes it (2xx), refuses it (a 4xx), or the retry
 * window ends; an attempt cut off by a crash is made again with the same body and timestamp.
 */
export class LtiScores extends DurableObject<Env> {
  private readonly sql: SqlStorage;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    ensureSchema(ctx.storage, ltiScoresSchema);
  }

  /** Queues the versions the grades call for; returns how many. */
  async sync(s: ScoreSync): Promise<number> {
    const url = scoresUrl(s.lineItemUrl);
    if (url === null) return 0;
    const now = Date.now();
    const queued = this.ctx.storage.transactionSync(() => {
      const latest = new Map<string, LatestGrade>(
        this.sql
          .exec<{ sub: string; version: number; key: string; timestamp: number }>("SELECT sub, version, key, timestamp FROM grade")
          .toArray()
          .map((g) => [g.sub, g]),
      );
      const plan = planScores(latest, s.scores, now);
      for (const q of plan) {
        this.sql.exec("UPDATE score SET state = 'superseded', next_at = NULL WHERE sub = ? AND state = 'queued'", q.sub);
        this.sql.exec(
          `INSERT INTO score (sub, version, answer_id, platform_id, url, scopes, body, state, created_at, next_at, attempts)
           VALUES (?, ?, ?, ?, ?, ?, ?, 'queued', ?, ?, 0)`,
          q.sub,
          q.version,
          q.answerId,
          s.platformId,
          url,
          JSON.stringify(s.scopes),
          JSON.stringify(scoreBody(q.sub, q.grade, q.timestamp)),
          now,
          now,
        );
        this.sql.exec(
          `INSERT INTO grade (sub, version, key, timestamp) VALUES (?, ?, ?, ?)
           ON CONFLICT (sub) DO UPDATE SET version = excluded.version, key = excluded.key, timestamp = excluded.timestamp`,
          q.sub,
          q.version,
          q.key,
          q.timestamp,
        );
      }
      return plan.length;
    });
    await this.arm();
    return queued;
  }

  /**
   * Sends again each learner's latest version that failed (the platform refused it, or the retry window
   * ran out), after the instructor or the LMS admin fixed what was wrong: the same score, with a fresh
   * retry window, its attempts numbered on. Returns how many.
   */
  async retryFailed(): Promise<number> {
    const now = Date.now();
    const n = this.ctx.storage.transactionSync(() => {
      const failed = this.sql
        .exec<{ sub: string; version: number }>(
          `SELECT s.sub, s.version FROM score s JOIN grade g ON g.sub = s.sub AND g.version = s.version WHERE s.state = 'failed'`,
        )
        .toArray();
      for (const f of failed)
        this.sql.exec(
          "UPDATE score SET state = 'queued', created_at = ?, next_at = ? WHERE sub = ? AND version = ?",
          now,
          now,
          f.sub,
          f.version,
        );
      return failed.length;
    });
    await this.arm();
    return n;
  }

  /** Every learner's delivery log. */
  async deliveries(): Promise<LearnerScores[]> {
    const iso = (ms: number) => new Date(ms).toISOString();
    const rows = this.sql.exec<ScoreRow>("SELECT * FROM score ORDER BY sub, version").toArray();
    const bySub = new Map<string, LearnerScores>();
    for (const r of rows) {
      const body = JSON.parse(r.body) as {
        gradingProgress: ScoreVersionView["gradingProgress"];
        scoreGiven?: number;
        scoreMaximum?: number;
        timestamp: string;
      };
      const attempts = this.sql
        .exec<{ n: number; at: number; status: number | null; error: string | null }>(
          "SELECT n, at, status, error FROM attempt WHERE sub = ? AND version = ? ORDER BY n",
          r.sub,
          r.version,
        )
        .toArray()
        .map((a) => ({ n: a.n, at: iso(a.at), status: a.status, error: a.error }));
      const entry = bySub.get(r.sub) ?? { sub: r.sub, answerId: r.answer_id, versions: [] };
      entry.answerId = r.answer_id;
      entry.versions.push({
        version: r.version,
        state: r.state,
        gradingProgress: body.gradingProgress,
        scoreGiven: body.scoreGiven ?? null,
        scoreMaximum: body.scoreMaximum ?? null,
        timestamp: body.timestamp,
        nextAttemptAt: r.state === "queued" && r.next_at !== null ? iso(r.next_at) : null,
        attempts,
      });
      bySub.set(r.sub, entry);
    }
    return [...bySub.values()];
  }

  /** Forgets these learners' scores and log (a person erased): their scores carry grades and feedback. */
  async forget(subs: string[]): Promise<void> {
    this.ctx.storage.transactionSync(() => {
      for (const sub of subs) for (const table of ["attempt", "score", "grade"]) this.sql.exec(`DELETE FROM ${table} WHERE sub = ?`, sub);
    });
    await this.arm();
  }

  /** Deletes the whole queue and log (the collection is erased), its alarm with it. */
  async forgetAll(): Promise<void> {
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
    ensureSchema(this.ctx.storage, ltiScoresSchema);
  }

  async alarm(): Promise<void> {
    // a class of 300 released at once: a bounded share per run, six posts at a time (Cloudflare opens
    // six connections per invocation; more would wait and time out), the rest at the next alarm, at once
    const due = this.sql
      .exec<ScoreRow>("SELECT * FROM score WHERE state = 'queued' AND next_at <= ? ORDER BY next_at LIMIT ?", Date.now(), POSTS_PER_ALARM)
      .toArray();
    for (let i = 0; i < due.length; i += POSTS_AT_ONCE) await Promise.all(due.slice(i, i + POSTS_AT_ONCE).map((s) => this.attempt(s)));
    await this.arm();
  }

  /** The alarm at the next due score, or none when nothing is queued. */
  private async arm(): Promise<void> {
    const next = this.sql.exec<{ at: number | null }>("SELECT MIN(next_at) AS at FROM score WHERE state = 'queued'").one().at;
    if (next === null) await this.ctx.storage.deleteAlarm();
    else await this.ctx.storage.setAlarm(Math.max(next, Date.now()));
  }

  private async attempt(s: ScoreRow): Promise<void> {
    const n = s.attempts + 1;
    const started = Date.now();
    const config = readConfig(this.env);
    // anything unforeseen (D1 unreachable, a key that will not import) is an attempt that failed, retried
    const score = { platformId: s.platform_id, url: s.url, scopes: JSON.parse(s.scopes) as string[], body: s.body };
    const outcome: PostOutcome = await postScore(this.env, score, config).catch((err: unknown) => ({
      status: null,
      error: `could not post: ${printable(err instanceof Error ? err.message : String(err))}`,
      retryAfterMs: null,
    }));
    const now = Date.now();
    const verdict =
      outcome.final !== undefined
        ? { kind: outcome.final }
        : afterScorePost(config.webhookRetry, {
            n,
            status: outcome.status,
            retryAfterMs: outcome.retryAfterMs,
            firstAt: s.created_at,
            now,
          });
    this.ctx.storage.transactionSync(() => {
      this.sql.exec(
        "INSERT INTO attempt (sub, version, n, at, status, error, duration_ms) VALUES (?, ?, ?, ?, ?, ?, ?)",
        s.sub,
        s.version,
        n,
        started,
        outcome.status,
        verdict.kind === "posted" ? null : (outcome.error ?? `answered ${outcome.status}`),
        now - started,
      );
      const current = this.sql
        .exec<{ state: LtiScoreState }>("SELECT state FROM score WHERE sub = ? AND version = ?", s.sub, s.version)
        .toArray()[0];
      // forgotten meanwhile (an erasure), or superseded by a newer version: a retry is not made
      if (!current || (current.state === "superseded" && verdict.kind !== "posted")) return;
      const state: LtiScoreState = verdict.kind === "retry" ? "queued" : verdict.kind === "posted" ? "posted" : "failed";
      this.sql.exec(
        "UPDATE score SET attempts = ?, state = ?, next_at = ? WHERE sub = ? AND version = ?",
        n,
        state,
        verdict.kind === "retry" ? verdict.at : null,
        s.sub,
        s.version,
      );
    });
  }
}
