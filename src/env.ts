import type { Collection } from "../durable-objects/collection";
import type { RateLimiter } from "../durable-objects/rate-limiter";
import type { JudgeGate } from "../durable-objects/judge-gate";
import type { Tournament } from "../durable-objects/tournament";
import type { WebhookDelivery } from "../durable-objects/webhook-delivery";

/**
 * The Worker's bindings: those wrangler.toml declares, the secrets (`wrangler secret put`), and the
 * optional tuning variables (`--var NAME:VALUE` or [vars]). Every variable arrives as a string.
 */
export interface AppEnv {
  DB: D1Database;
  TOURNAMENT: DurableObjectNamespace<Tournament>;
  COLLECTION: DurableObjectNamespace<Collection>;
  /** The web front, public/ (wrangler [assets]). */
  ASSETS: Fetcher;
  WEBHOOKS: DurableObjectNamespace<WebhookDelivery>;
  RATE_LIMITER: DurableObjectNamespace<RateLimiter>;
  JUDGE_GATE: DurableObjectNamespace<JudgeGate>;
  JUDGE_BASE_URL?: string;
  JUDGE_MODEL?: string;
  JUDGE_API_KEY?: string;
  ADMIN_TOKEN?: string;
  JUDGE_TIMEOUT_MS?: string;
  JUDGE_DEADLINE_MS?: string;
  JUDGE_STRUCTURED_OUTPUTS?: string;
  RATE_LIMIT_PER_MINUTE?: string;
  ALLOW_INSECURE_WEBHOOKS?: string;
  WEBHOOK_RETRY_BASE_MS?: string;
  WEBHOOK_RETRY_CAP_MS?: string;
  WEBHOOK_RETRY_WINDOW_MS?: string;
  WEBHOOK_TIMEOUT_MS?: string;
  JUDGE_RETRY_BASE_MS?: string;
  JUDGE_RETRY_CAP_MS?: string;
  JUDGE_MAX_TOKENS?: string;
  JUDGE_PARSE_ATTEMPTS?: string;
  TOURNAMENT_WATCHDOG_MS?: string;
  /** How many answers one client (IP) may submit to one collection per window (default 20 per 600 s). */
  COLLECTION_SUBMIT_LIMIT?: string;
  COLLECTION_SUBMIT_WINDOW_S?: string;
  /** How long after closing a collection keeps trying to start its grading (default 1 h). */
  COLLECTION_GRADING_DEADLINE_MS?: string;
  JUDGE_MAX_CONCURRENCY?: string;
  JUDGE_MAX_IN_FLIGHT?: string;
  JUDGE_MAX_RUNNING?: string;
}
