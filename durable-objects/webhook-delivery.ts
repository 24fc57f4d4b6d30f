import { metered } from "../src/platform/meter";
import { DurableObject } from "cloudflare:workers";
import { readConfig } from "../src/platform/config";
import { afterAttempt, type RetryPolicy } from "../src/webhooks/schedule";
import { createSecretIfMissing, signingSecrets } from "../src/webhooks/secret";
import { signedHeaders } from "../src/webhooks/sign";
import { ensureSchema, type ObjectSchema } from "./schema";
import { webhookUrlProblem, withoutCredentials } from "../src/webhooks/url";

/** A webhook to deliver: its body is fixed when it is queued, so every attempt sends the same bytes. */
export interface WebhookMessage {
  /** `webhook-id`: the same for every attempt, so receivers can drop repeats. */
  id: string;
  tenant: string;
  /** The evaluation or batch it is about. */
  subject: string;
  url: string;
  type: string;
  body: string;
}

/** `refused`: never sent, because its URL breaks the webhook URL policy (webhooks/url.ts). */
export type DeliveryState = "pending" | "delivered" | "gone" | "expired" | "refused";

export interface DeliveryView {
  id: string;
  type: string;
  url: string;
  state: DeliveryState;
  createdAt: string;
  nextAttemptAt: string | null;
  attempts: { n: number; at: string; status: number | null; error: string | null; durationMs: number }[];
}

/** The queue's tables, by version (see ./schema.ts). */
export const webhookSchema: ObjectSchema = {
  name: "webhooks",
  migrations: [
    [
      `CREATE TABLE IF NOT EXISTS message (
        id TEXT PRIMARY KEY, tenant TEXT NOT NULL, subject TEXT NOT NULL, url TEXT NOT NULL, type TEXT NOT NULL,
        body TEXT NOT NULL, state TEXT NOT NULL, created_at INTEGER NOT NULL, next_at INTEGER, attempts INTEGER NOT NULL)`,
      "CREATE INDEX IF NOT EXISTS message_due ON message (state, next_at)",
      "CREATE INDEX IF NOT EXISTS message_subject ON message (subject)",
      `CREATE TABLE IF NOT EXISTS attempt (
        message_id TEXT NOT NULL, n INTEGER NOT NULL, at INTEGER NOT NULL, status INTEGER, error TEXT,
        duration_ms INTEGER NOT NULL, PRIMARY KEY (message_id, n))`,
    ],
  ],
};

/**
 * The webhook queue of one tenant, in the object's own SQLite, driven by its alarm (as cloudflare/agents
 * drives its schedule table): a restart or an eviction loses nothing, the alarm picks the queue up
 * again. Delivery is at least once: an attempt cut off by a crash is made again with the same
 * `webhook-id`. Every attempt is logged and readable through the API.
 */
export class WebhookDelivery extends DurableObject<Env> {
  private readonly sql: SqlStorage;
  private readonly policy: RetryPolicy;
  private readonly timeoutMs: number;
  /** ALLOW_INSECURE_WEBHOOKS: the URL policy is checked again before every attempt. */
  private readonly allowInsecure: boolean;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, metered(env));
    this.sql = ctx.storage.sql;
    ensureSchema(ctx.storage, webhookSchema);
    const config = readConfig(env);
    this.policy = config.webhookRetry;
    this.allowInsecure = config.allowInsecureWebhooks;
    this.timeoutMs = config.webhookTimeoutMs;
  }

  /** Queues a message for delivery now; a message already queued (same id) is left as it is. */
  async enqueue(m: WebhookMessage): Promise<void> {
    const now = Date.now();
    this.sql.exec(
      `INSERT INTO message (id, tenant, subject, url, type, body, state, created_at, next_at, attempts)
       VALUES (?, ?, ?, ?, ?, ?, 'pending', ?, ?, 0) ON CONFLICT (id) DO NOTHING`,
      m.id,
      m.tenant,
      m.subject,
      m.url,
      m.type,
      m.body,
      now,
      now,
    );
    await this.arm();
  }

  /**
   * Forgets every message about these subjects (evaluations, batches, collections being erased), queued
   * or delivered, with their attempts: their payloads carry answer ids and grades. Idempotent.
   */
  async forget(subjects: string[]): Promise<void> {
    this.ctx.storage.transactionSync(() => {
      for (const subject of subjects) {
        this.sql.exec("DELETE FROM attempt WHERE message_id IN (SELECT id FROM message WHERE subject = ?)", subject);
        this.sql.exec("DELETE FROM message WHERE subject = ?", subject);
      }
    });
    await this.arm();
  }

  /**
   * Replaces each of `values` (a person's answer ids, their examinee) where it is a JSON string in the
   * payloads about `subjects` with `placeholder`: the other students' results stay deliverable.
   */
  async scrub(subjects: string[], values: string[], placeholder: string): Promise<void> {
    this.ctx.storage.transactionSync(() => {
      for (const subject of subjects)
        for (const value of values)
          this.sql.exec(
            "UPDATE message SET body = replace(body, ?, ?) WHERE subject = ?",
            JSON.stringify(value),
            JSON.stringify(placeholder),
            subject,
          );
    });
  }

  /** Deletes the whole queue and log (the tenant is erased), its alarm with it. */
  async forgetAll(): Promise<void> {
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
    ensureSchema(this.ctx.storage, webhookSchema);
  }

  async deliveries(subject: string): Promise<DeliveryView[]> {
    const iso = (ms: number) => new Date(ms).toISOString();
    const messages = this.sql
      .exec<{ id: string; type: string; url: string; state: DeliveryState; created_at: number; next_at: number | null }>(
        "SELECT id, type, url, state, created_at, next_at FROM message WHERE subject = ? ORDER BY created_at",
        subject,
      )
      .toArray();
    return messages.map((m) => ({
      id: m.id,
      type: m.type,
      url: withoutCredentials(m.url),
      state: m.state,
      createdAt: iso(m.created_at),
      nextAttemptAt: m.state === "pending" && m.next_at !== null ? iso(m.next_at) : null,
      attempts: this.sql
        .exec<{ n: number; at: number; status: number | null; error: string | null; duration_ms: number }>(
          "SELECT n, at, status, error, duration_ms FROM attempt WHERE message_id = ? ORDER BY n",
          m.id,
        )
        .toArray()
        .map((a) => ({ n: a.n, at: iso(a.at), status: a.status, error: a.error, durationMs: a.duration_ms })),
    }));
  }

  async alarm(): Promise<void> {
    const due = this.sql
      .exec<{ id: string; tenant: string; subject: string; url: string; type: string; body: string; attempts: number; created_at: number }>(
        "SELECT id, tenant, subject, url, type, body, attempts, created_at FROM message WHERE state = 'pending' AND next_at <= ?",
        Date.now(),
      )
      .toArray();
    await Promise.all(due.map((m) => this.attempt(m)));
    await this.arm();
  }

  /** The alarm at the next due message, or none when nothing is pending. */
  private async arm(): Promise<void> {
    const next = this.sql.exec<{ at: number | null }>("SELECT MIN(next_at) AS at FROM message WHERE state = 'pending'").one().at;
    if (next === null) await this.ctx.storage.deleteAlarm();
    else await this.ctx.storage.setAlarm(Math.max(next, Date.now()));
  }

  private async attempt(m: WebhookMessage & { attempts: number; created_at: number }): Promise<void> {
    const n = m.attempts + 1;
    const started = Date.now();
    // the rules are checked again here: a URL queued before them, or by a path that skipped them, is not sent
    const refused = webhookUrlProblem(m.url, this.allowInsecure);
    if (refused) {
      this.ctx.storage.transactionSync(() => {
        this.sql.exec(
          "INSERT INTO attempt (message_id, n, at, status, error, duration_ms) VALUES (?, ?, ?, NULL, ?, 0)",
          m.id,
          n,
          started,
          `not sent: the URL ${refused}`,
        );
        this.sql.exec("UPDATE message SET attempts = ?, state = 'refused', next_at = NULL WHERE id = ?", n, m.id);
      });
      return;
    }
    let status: number | null = null;
    let error: string | null = null;
    try {
      let secrets = await signingSecrets(this.env, m.tenant);
      if (secrets.length === 0) {
        // a tenant made before webhook secrets existed gets one now; it learns it by rotating
        await createSecretIfMissing(this.env, m.tenant);
        secrets = await signingSecrets(this.env, m.tenant);
      }
      const response = await fetch(m.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "user-agent": "knockout-judge-webhooks/1",
          ...signedHeaders(secrets, m.id, new Date(), m.body),
        },
        body: m.body,
        redirect: "manual", // a redirect is not a delivery; the receiver should give its real URL
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      status = response.status;
      await response.body?.cancel();
    } catch (err) {
      error =
        err instanceof Error && err.name === "TimeoutError"
          ? `no answer within ${this.timeoutMs} ms`
          : `could not connect: ${(err as Error).message}`;
    }
    const now = Date.now();
    const verdict = afterAttempt(this.policy, { n, status, firstAt: m.created_at, now });
    if (status !== null && verdict.kind !== "delivered") error = `answered ${status}`;
    this.ctx.storage.transactionSync(() => {
      this.sql.exec(
        "INSERT INTO attempt (message_id, n, at, status, error, duration_ms) VALUES (?, ?, ?, ?, ?, ?)",
        m.id,
        n,
        started,
        status,
        error,
        now - started,
      );
      const state: DeliveryState = verdict.kind === "retry" ? "pending" : verdict.kind;
      this.sql.exec(
        "UPDATE message SET attempts = ?, state = ?, next_at = ? WHERE id = ?",
        n,
        state,
        verdict.kind === "retry" ? verdict.at : null,
        m.id,
      );
    });
  }
}
