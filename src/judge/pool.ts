import { z } from "zod";
import { isSettingName } from "./setting-names";

/**
 * The judge servers the service grades on: JUDGE_ENDPOINTS, a JSON list of OpenAI-compatible
 * endpoints, or JUDGE_BASE_URL, the shorthand for a pool of one. The pool serves one judge model (every
 * endpoint takes every call, as before panels), or several (issue 30: a panel of judges), each
 * endpoint naming the models it serves: a call then goes only to an endpoint that serves its model.
 * Pure: the config reader passes the variables and the secrets in, and gets the pool or the reason it
 * is refused.
 */
export interface PoolEndpoint {
  /** The base URL as configured, without a trailing slash: the endpoint's name in `calls[].endpoint` and GET /v1/judges. */
  url: string;
  /** The model this endpoint must serve, when configured (its own `model`, the first of its `models`, else JUDGE_MODEL). */
  model?: string;
  /** Every model it serves, when configured (`models`, else `[model]`); absent: whatever its /v1/models lists. */
  models?: string[];
  /** The bearer token sent to it: the value of the secret its `apiKey` names. */
  apiKey?: string;
  /** Requests open at this endpoint at once, across every evaluation. */
  maxConcurrency: number;
  /** Preference among endpoints with room: load is counted relative to cap x weight (default 1). */
  weight: number;
}

export interface JudgePool {
  /** The JudgeGate's name: the base URL for a pool of one (as before pools), else every URL, sorted. */
  key: string;
  endpoints: PoolEndpoint[];
  /** Requests open at once over the whole pool: the sum of the endpoints' caps. */
  capacity: number;
  /**
   * The models the configuration names, each once, in the order listed (JUDGE_MODEL first where an
   * endpoint serves it: an evaluation that names no model is judged by the first); empty when none is named.
   */
  models: string[];
}

export interface PoolSettings {
  JUDGE_ENDPOINTS?: string;
  JUDGE_BASE_URL?: string;
  JUDGE_MODEL?: string;
  JUDGE_API_KEY?: string;
  /** The cap of JUDGE_BASE_URL's endpoint, and of a listed endpoint that names none. */
  maxConcurrency: number;
}

const endpointSchema = z.strictObject({
  url: z.string().min(1),
  model: z.string().min(1).optional(),
  // an endpoint that serves several models (an OpenAI-compatible router, vLLM with several served names)
  models: z
    .array(z.string().min(1).max(200))
    .min(1)
    .max(32)
    .refine((list) => new Set(list).size === list.length, "names a model twice")
    .optional(),
  apiKey: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "the name of a secret (a variable name), not the key itself")
    .optional(),
  maxConcurrency: z.number().int().min(1).max(10_000).optional(),
  weight: z.number().positive().max(1_000).optional(),
});

/**
 * Why the settings were refused. `error` is shown to every key (in GET /v1/judges and each POST's 503),
 * so it names the variable and what is wrong, never a value: a key pasted into JUDGE_BASE_URL, or the
 * text V8 quotes around a JSON typo, would otherwise reach any tenant. `detail` is the whole story, with
 * the values, for the operator's log only.
 */
export interface PoolRefusal {
  pool?: undefined;
  error: string;
  detail: string;
}

const refuse = (error: string, detail: string = error): PoolRefusal => ({ error, detail });

/**
 * The pool the settings describe: `{ pool: null }` when no judge is configured, or a refusal naming
 * what is wrong, so that a bad JUDGE_ENDPOINTS is reported where it matters (creating an evaluation,
 * GET /v1/judges) rather than crashing every request. `secrets` are the Worker's variables, in which
 * an endpoint's `apiKey` is looked up by name.
 */
export function readPool(
  settings: PoolSettings,
  secrets: Record<string, unknown>,
): { pool: JudgePool | null; error?: undefined; detail?: undefined } | PoolRefusal {
  const listed = settings.JUDGE_ENDPOINTS?.trim();
  const single = settings.JUDGE_BASE_URL?.trim();
  const jointModel = settings.JUDGE_MODEL || undefined;
  if (!listed) {
    if (!single) return { pool: null };
    const url = checkUrl(single);
    if (typeof url !== "string") return refuse(`JUDGE_BASE_URL: ${url.error}`, `JUDGE_BASE_URL: ${url.detail}`);
    const endpoint: PoolEndpoint = {
      url,
      ...(jointModel ? { model: jointModel, models: [jointModel] } : {}),
      ...(settings.JUDGE_API_KEY ? { apiKey: settings.JUDGE_API_KEY } : {}),
      maxConcurrency: settings.maxConcurrency,
      weight: 1,
    };
    return { pool: { key: url, endpoints: [endpoint], capacity: endpoint.maxConcurrency, models: jointModel ? [jointModel] : [] } };
  }
  if (single) return refuse("set JUDGE_ENDPOINTS or JUDGE_BASE_URL, not both");
  let json: unknown;
  try {
    json = JSON.parse(listed);
  } catch (err) {
    return refuse("JUDGE_ENDPOINTS is not JSON", `JUDGE_ENDPOINTS is not JSON: ${(err as Error).message}`);
  }
  const parsed = z.array(endpointSchema).min(1, "lists no endpoint").max(64).safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = `JUDGE_ENDPOINTS${issue.path.map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`)).join("")}`;
    // zod names an unknown field, and that name is the operator's text (a key pasted as a field name)
    const what =
      issue.code === "unrecognized_keys" ? `has a field that is not one of ${Object.keys(endpointSchema.shape).join(", ")}` : issue.message;
    return refuse(`${where}: ${what}`, `${where}: ${issue.message}`);
  }
  const endpoints: PoolEndpoint[] = [];
  for (const [i, e] of parsed.data.entries()) {
    const url = checkUrl(e.url);
    if (typeof url !== "string") return refuse(`JUDGE_ENDPOINTS[${i}].url: ${url.error}`, `JUDGE_ENDPOINTS[${i}].url: ${url.detail}`);
    const twice = endpoints.findIndex((o) => sameEndpoint(o.url, url));
    if (twice >= 0)
      return refuse(
        `JUDGE_ENDPOINTS[${i}].url: the same endpoint as JUDGE_ENDPOINTS[${twice}]`,
        `JUDGE_ENDPOINTS[${i}].url: ${url} is listed twice`,
      );
    let apiKey: string | undefined;
    if (e.apiKey) {
      if (isSettingName(e.apiKey))
        return refuse(
          `JUDGE_ENDPOINTS[${i}].apiKey: names one of the service's own settings; name a secret of its own, such as GPU_KEY`,
          `JUDGE_ENDPOINTS[${i}].apiKey: ${e.apiKey} is one of the service's own settings`,
        );
      const value = secrets[e.apiKey];
      if (typeof value !== "string" || value === "")
        return refuse(
          `JUDGE_ENDPOINTS[${i}].apiKey: names a secret that is not set`,
          `JUDGE_ENDPOINTS[${i}].apiKey: the secret ${e.apiKey} is not set`,
        );
      apiKey = value;
    }
    if (e.model && e.models) return refuse(`JUDGE_ENDPOINTS[${i}]: give model or models, not both`);
    const models = e.models ?? (e.model ? [e.model] : jointModel ? [jointModel] : undefined);
    endpoints.push({
      url,
      ...(models ? { model: models[0], models } : {}),
      ...(apiKey ? { apiKey } : {}),
      maxConcurrency: e.maxConcurrency ?? settings.maxConcurrency,
      weight: e.weight ?? 1,
    });
  }
  // grades must not depend on which server answered: with several models, each endpoint says which it serves
  // JUDGE_MODEL first where an endpoint serves it: the model of an evaluation that names none
  const named = endpoints.flatMap((e) => e.models ?? []);
  const models = [...new Set(jointModel && named.includes(jointModel) ? [jointModel, ...named] : named)];
  const unnamed = endpoints.findIndex((e) => !e.models);
  if (models.length > 1 && unnamed >= 0)
    return refuse(
      `JUDGE_ENDPOINTS[${unnamed}]: names no model, in a pool that serves several: give it its model (or models)`,
      `JUDGE_ENDPOINTS[${unnamed}]: names no model, in a pool that serves ${models.join(", ")}`,
    );
  const key =
    endpoints.length === 1
      ? endpoints[0].url
      : `pool:${endpoints
          .map((e) => e.url)
          .sort()
          .join(" ")}`;
  return { pool: { key, endpoints, capacity: endpoints.reduce((s, e) => s + e.maxConcurrency, 0), models } };
}

/**
 * The endpoints a call for `model` may go to: in a pool of one model, every endpoint (the model a call
 * names is checked against the pool at the start, as before panels); in a pool of several, those that
 * name it. Empty: no endpoint serves it.
 */
export function endpointsFor<E extends Pick<PoolEndpoint, "models">>(
  pool: { endpoints: readonly E[]; models: readonly string[] },
  model: string,
): E[] {
  if (pool.models.length <= 1) return [...pool.endpoints];
  return pool.endpoints.filter((e) => e.models?.includes(model));
}

/**
 * The first of `models` (a panel) that no endpoint is configured to serve: its index, or -1. A pool
 * that names no model learns what it serves from /v1/models when an evaluation starts, so nothing is
 * refused here.
 */
export function unservedModel(pool: { models: readonly string[] }, models: readonly string[]): number {
  if (pool.models.length === 0) return -1;
  return models.findIndex((m) => !pool.models.includes(m));
}

/**
 * The judge an evaluation names that no endpoint is configured to serve, as the field that names it
 * (`panel[i]`, or `model`), or null. A panel's members must be among the pool's models (unservedModel).
 * `model`, and a panel of one (a plain judge), only in a pool of several models: there a call goes
 * only to an endpoint that names its model, so a model none names would fail at the start, sure as
 * anything. A pool of one model asks its endpoints whatever model the evaluation names, as before
 * pools (the start's check asks their /v1/models), and one that names no model learns its models then.
 */
export function unservedJudge(
  pool: { models: readonly string[] },
  judge: { model?: string; panel?: readonly string[] } | undefined,
): { field: string; model: string } | null {
  const panel = judge?.panel ?? [];
  if (panel.length > 1) {
    const at = unservedModel(pool, panel);
    return at < 0 ? null : { field: `panel[${at}]`, model: panel[at] };
  }
  const [field, model] = panel.length === 1 ? ["panel[0]", panel[0]] : ["model", judge?.model];
  if (model === undefined || pool.models.length <= 1 || pool.models.includes(model)) return null;
  return { field, model };
}

/**
 * An endpoint's base URL, as http(s) with no credentials, query or fragment (it is shown to every key
 * in GET /v1/judges and in each call's `endpoint`, so a secret has no place in it: `apiKey` holds that).
 */
function checkUrl(raw: string): string | { error: string; detail: string } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { error: "is not a URL", detail: `${JSON.stringify(raw)} is not a URL` };
  }
  const wrong = (error: string) => ({ error, detail: error });
  if (url.protocol !== "http:" && url.protocol !== "https:") return wrong("must be http:// or https://");
  if (url.username || url.password) return wrong("must not carry credentials (name a secret in apiKey)");
  // an empty query (`…/v1?`) parses to no search at all, and the calls would append their paths after it
  if (url.search || url.hash || raw.includes("?") || raw.includes("#")) return wrong("must not carry a query or a fragment");
  return raw.replace(/\/+$/, "");
}

/** Whether two checked base URLs name one endpoint: scheme and host are case-insensitive (and a default port is no port). */
function sameEndpoint(a: string, b: string): boolean {
  const key = (raw: string) => {
    const url = new URL(raw);
    return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, "")}`;
  };
  return key(a) === key(b);
}

/**
 * Which model the pool serves, from what each endpoint's /v1/models listed (null: not reachable now).
 * Each endpoint must list its configured model; without one configured, its first listed model is the
 * one it serves. All that answered must agree: otherwise the pool is refused, naming who serves what.
 * Pure, so the gate only fetches.
 */
export function poolModel(
  endpoints: readonly Pick<PoolEndpoint, "url" | "model">[],
  listed: readonly (readonly string[] | null)[],
): { model: string; missing: string[] } | { error: string; unanswered?: true } {
  const serves: { url: string; model: string }[] = [];
  const missing: string[] = [];
  for (const [i, e] of endpoints.entries()) {
    const models = listed[i];
    if (models === null || models === undefined) {
      missing.push(e.url);
      continue;
    }
    if (e.model) {
      if (!models.includes(e.model))
        return { error: `judge ${e.url} does not serve the model ${e.model} (its /v1/models lists ${models.join(", ") || "none"})` };
      serves.push({ url: e.url, model: e.model });
    } else {
      if (models.length === 0) return { error: `judge ${e.url} lists no model at /v1/models; set the model` };
      serves.push({ url: e.url, model: models[0] });
    }
  }
  const distinct = [...new Set(serves.map((s) => s.model))];
  if (distinct.length > 1)
    return {
      error: `the judge pool serves different models (${serves.map((s) => `${s.url} serves ${s.model}`).join("; ")}): every endpoint must serve the same judge model, so that grades do not depend on which server answered`,
    };
  if (distinct.length === 0) return { error: "no judge endpoint answered /v1/models", unanswered: true };
  return { model: distinct[0], missing };
}
