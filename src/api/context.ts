/** What a request carries through the app: the bindings, and what the middleware found out. */
export type Vars = {
  tenant: string;
  /** The SHA-256 of the caller's API key: what its limits are counted by. */
  keyHash: string;
  /** The id of the API key the request came with (not its hash): what per-key budgets are kept by. */
  keyId: string;
  /** The caller's key's own limits: what a key it makes may not exceed, and when its streams end. */
  keyLimits: { rateLimitPerMinute: number | null; expiresAt: number | null };
  /** Who the audit trail says did it: the key's id, or "admin" for the admin token. */
  actor: string;
  /** The response carries a secret shown once: an idempotent retry must not show it again. */
  shownOnce?: boolean;
  /** Top-level fields of the response left out (set to null) of what an idempotent retry replays. */
  keptWithout?: string[];
  /** The request changed nothing (a dry run): its Idempotency-Key is not kept. */
  changedNothing?: boolean;
};
export type App = { Bindings: Env; Variables: Vars };
