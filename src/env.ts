import type { JudgeGate } from "../durable-objects/judge-gate";
import type { Tournament } from "../durable-objects/tournament";

/**
 * The Worker's bindings: those wrangler.toml declares, the secrets (`wrangler secret put`), and the
 * optional tuning variables (`--var NAME:VALUE` or [vars]). Every variable arrives as a string.
 */
export interface AppEnv {
  DB: D1Database;
  TOURNAMENT: DurableObjectNamespace<Tournament>;
  JUDGE_GATE: DurableObjectNamespace<JudgeGate>;
  JUDGE_BASE_URL?: string;
  JUDGE_MODEL?: string;
  JUDGE_API_KEY?: string;
  ADMIN_TOKEN?: string;
  JUDGE_TIMEOUT_MS?: string;
  JUDGE_MAX_ATTEMPTS?: string;
  JUDGE_RETRY_BASE_MS?: string;
  JUDGE_RETRY_CAP_MS?: string;
  JUDGE_MAX_TOKENS?: string;
  JUDGE_PARSE_ATTEMPTS?: string;
  TOURNAMENT_WATCHDOG_MS?: string;
  JUDGE_MAX_CONCURRENCY?: string;
  JUDGE_MAX_IN_FLIGHT?: string;
}
