/** What a request carries through the app: the bindings, and what the middleware found out. */
export type Vars = {
  tenant: string;
  /** The id of the API key the request came with (not its hash): what per-key budgets are kept by. */
  keyId: string;
  /** The response carries a secret shown once: an idempotent retry must not show it again. */
  shownOnce?: boolean;
};
export type App = { Bindings: Env; Variables: Vars };
