import type {
  Accepted,
  AuditPage,
  Batch,
  BatchAccepted,
  BatchRequest,
  Cancelled,
  Collection,
  CollectionRequest,
  Erased,
  Estimate,
  Evaluation,
  EvaluationRequest,
  FeedbackEdited,
  FeedbackRequest,
  Grade,
  GradeRequest,
  KeyCreated,
  KeyList,
  KeyRevoked,
  LtiPlatform,
  LtiPlatformDeleted,
  LtiPlatformList,
  LtiPlatformPatchRequest,
  LtiPlatformRequest,
  Problem,
  Ratings,
  ReleaseRequest,
  ReleaseState,
  RerunAccepted,
  SubjectErased,
  SubjectEraseRequest,
  TenantKeyRequest,
  TenantSettings,
  TenantSettingsRequest,
} from "../contract/index.ts";
import { type ExportLine, ndjsonLines } from "./ndjson.ts";

/**
 * A typed client of the API for TypeScript users (the CLI is one). Its request and answer types are the
 * wire contract's (src/contract, `knockout-judge/contract`): the inputs of the zod schemas the service
 * validates with, and the outputs of those its OpenAPI document is generated from. Connection errors,
 * 429 and 5xx are retried with backoff, never sooner than the refusal's Retry-After; any other refusal is thrown as an `ApiProblem`.
 * The NDJSON exports are async iterables of parsed lines, read as the service streams them.
 */
export type {
  Accepted,
  AuditPage,
  Batch,
  BatchAccepted,
  BatchRequest,
  Cancelled,
  Collection,
  CollectionRequest,
  Erased,
  Estimate,
  Evaluation,
  EvaluationRequest,
  FeedbackEdited,
  FeedbackRequest,
  Grade,
  GradeRequest,
  KeyCreated,
  KeyList,
  KeyRevoked,
  LtiPlatform,
  LtiPlatformDeleted,
  LtiPlatformList,
  LtiPlatformPatchRequest,
  LtiPlatformRequest,
  Problem,
  Ratings,
  ReleaseRequest,
  ReleaseState,
  RerunAccepted,
  SubjectErased,
  SubjectEraseRequest,
  TenantKeyRequest,
  TenantSettings,
  TenantSettingsRequest,
};
export type { ExportLine };

/** A refusal of the service: its status and problem details (RFC 9457). */
export class ApiProblem extends Error {
  // plain fields, not parameter properties: the CLI runs this file with Node's type stripping
  readonly status: number;
  readonly problem: Problem | null;

  constructor(status: number, problem: Problem | null, message: string) {
    super(message);
    this.name = "ApiProblem";
    this.status = status;
    this.problem = problem;
  }
}

/** A page of the audit trail to read (GET /v1/audit): from `since` (ISO 8601), after a page's `nextCursor`. */
export interface AuditQuery {
  since?: string;
  cursor?: string;
  limit?: number;
}

export interface ClientOptions {
  /** e.g. http://localhost:8787 */
  baseUrl: string;
  /** A tenant's API key (POST /v1/keys). */
  key: string;
  /** Attempts for a connection error, 429 or 5xx (default 6). */
  attempts?: number;
  fetch?: typeof fetch;
  /** How the client waits between attempts (default: a timer). */
  sleep?: (ms: number) => Promise<void>;
}

/**
 * How long to wait before attempt `attempt` (1 for the first retry): exponential backoff with jitter
 * (`random` in [0, 1)), and never less than the last answer's Retry-After, in seconds or an HTTP date
 * (a 429 past a budget says when it can be paid; asking sooner is refused again). Pure.
 */
export function retryDelayMs(attempt: number, retryAfter: string | null, now: number, random: number): number {
  const backoff = Math.min(10_000, 250 * 2 ** attempt) * (0.5 + random / 2);
  return Math.max(backoff, retryAfterMs(retryAfter, now));
}

/** A Retry-After header in ms from `now` (RFC 9110 10.2.3: delay-seconds or an HTTP date); 0 if absent or unreadable. */
function retryAfterMs(header: string | null, now: number): number {
  const value = header?.trim() ?? "";
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = value ? Date.parse(value) : Number.NaN;
  return Number.isFinite(at) ? Math.max(0, at - now) : 0;
}

export function knockoutJudge(options: ClientOptions) {
  const send = options.fetch ?? fetch;
  const attempts = options.attempts ?? 6;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const base = options.baseUrl.replace(/\/+$/, "");
  const id = (value: string) => encodeURIComponent(value);

  /** The first answer that is not a 429, a 5xx or a connection error, once it is a 2xx; else its refusal thrown. */
  async function respond(method: string, path: string, body?: unknown): Promise<Response> {
    let last: Error = new Error(`${method} ${path}: not sent`);
    let retryAfter: string | null = null;
    for (let attempt = 0; attempt < attempts; attempt++) {
      if (attempt > 0) await sleep(retryDelayMs(attempt, retryAfter, Date.now(), Math.random()));
      retryAfter = null;
      let response: Response;
      try {
        response = await send(`${base}${path}`, {
          method,
          headers: { authorization: `Bearer ${options.key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      } catch (err) {
        last = new Error(`${method} ${path}: ${(err as Error).message}`);
        continue;
      }
      retryAfter = response.headers.get("retry-after");
      if (response.ok) return response;
      const text = await response.text();
      let problem: Problem | null = null;
      try {
        problem = JSON.parse(text);
      } catch {}
      last = new ApiProblem(response.status, problem, `${method} ${path}: ${response.status} ${problem?.detail ?? text}`);
      if (response.status !== 429 && response.status < 500) break;
    }
    throw last;
  }

  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const text = await (await respond(method, path, body)).text();
    return (text ? JSON.parse(text) : null) as T;
  }

  /**
   * An NDJSON export, line by line as the service streams it. Asked for when the loop starts; a refusal
   * (403 for a key that is not the tenant's admin) is thrown there, before the first line.
   */
  async function* exportLines(path: string): AsyncGenerator<ExportLine> {
    const response = await respond("GET", path);
    if (response.body) yield* ndjsonLines(response.body);
  }

  /** A query string of the values given, `?` first; empty when none is. */
  const query = (values: Record<string, string | number | undefined>) => {
    const given = Object.entries(values).filter((e): e is [string, string | number] => e[1] !== undefined);
    return given.length ? `?${new URLSearchParams(given.map(([k, v]) => [k, String(v)]))}` : "";
  };

  return {
    createEvaluation: (body: EvaluationRequest) => call<Accepted>("POST", "/v1/evaluations", body),
    estimateEvaluation: (body: EvaluationRequest) => call<Estimate>("POST", "/v1/evaluations?dryRun=true", body),
    evaluation: (evaluationId: string) => call<Evaluation>("GET", `/v1/evaluations/${id(evaluationId)}`),
    cancelEvaluation: (evaluationId: string) => call<Cancelled>("DELETE", `/v1/evaluations/${id(evaluationId)}`),
    gradeAnswer: (evaluationId: string, answerId: string, body: GradeRequest) =>
      call<Grade>("PUT", `/v1/evaluations/${id(evaluationId)}/answers/${id(answerId)}/grade`, body),
    createBatch: (body: BatchRequest) => call<BatchAccepted>("POST", "/v1/batches", body),
    estimateBatch: (body: BatchRequest) => call<Estimate>("POST", "/v1/batches?dryRun=true", body),
    batch: (batchId: string) => call<Batch>("GET", `/v1/batches/${id(batchId)}`),
    batchRatings: (batchId: string, samples = 300) => call<Ratings>("GET", `/v1/batches/${id(batchId)}/ratings?samples=${samples}`),
    createCollection: (body: CollectionRequest) => call<Collection>("POST", "/v1/collections", body),
    collection: (collectionId: string) => call<Collection>("GET", `/v1/collections/${id(collectionId)}`),
    rerunEvaluation: (evaluationId: string) => call<RerunAccepted>("POST", `/v1/evaluations/${id(evaluationId)}/rerun`),
    setFeedback: (evaluationId: string, answerId: string, body: FeedbackRequest) =>
      call<FeedbackEdited>("PUT", `/v1/evaluations/${id(evaluationId)}/answers/${id(answerId)}/feedback`, body),
    /** Releases the answers named, or every answer of the evaluation when `body` is left out. */
    releaseAnswers: (evaluationId: string, body?: ReleaseRequest) =>
      call<ReleaseState>("POST", `/v1/evaluations/${id(evaluationId)}/release`, body),
    /** Withdraws the release of the answers named, or of every answer when `body` is left out. */
    withdrawRelease: (evaluationId: string, body?: ReleaseRequest) =>
      call<ReleaseState>("DELETE", `/v1/evaluations/${id(evaluationId)}/release`, body),
    // erasing and the tenant's export, audit trail and retention: an admin key's (settings: any key may read)
    eraseEvaluation: (evaluationId: string) => call<Erased>("POST", `/v1/evaluations/${id(evaluationId)}/erase`),
    eraseBatch: (batchId: string) => call<Erased>("POST", `/v1/batches/${id(batchId)}/erase`),
    eraseCollection: (collectionId: string) => call<Erased>("POST", `/v1/collections/${id(collectionId)}/erase`),
    eraseSubject: (body: SubjectEraseRequest) => call<SubjectErased>("POST", "/v1/subjects/erase", body),
    audit: (page: AuditQuery = {}) =>
      call<AuditPage>("GET", `/v1/audit${query({ since: page.since, cursor: page.cursor, limit: page.limit })}`),
    tenantSettings: () => call<TenantSettings>("GET", "/v1/tenant/settings"),
    setTenantSettings: (body: TenantSettingsRequest) => call<TenantSettings>("PUT", "/v1/tenant/settings", body),
    exportTenant: () => exportLines("/v1/tenant/export"),
    exportSubject: (examinee: string) => exportLines(`/v1/subjects/export${query({ examinee })}`),
    // the tenant's own keys and LTI platforms: an admin key's
    createKey: (body: TenantKeyRequest = {}) => call<KeyCreated>("POST", "/v1/tenant/keys", body),
    keys: () => call<KeyList>("GET", "/v1/tenant/keys"),
    revokeKey: (keyId: string) => call<KeyRevoked>("DELETE", `/v1/tenant/keys/${id(keyId)}`),
    registerLtiPlatform: (body: LtiPlatformRequest) => call<LtiPlatform>("POST", "/v1/lti/platforms", body),
    ltiPlatforms: () => call<LtiPlatformList>("GET", "/v1/lti/platforms"),
    ltiPlatform: (platformId: string) => call<LtiPlatform>("GET", `/v1/lti/platforms/${id(platformId)}`),
    changeLtiPlatform: (platformId: string, body: LtiPlatformPatchRequest) =>
      call<LtiPlatform>("PATCH", `/v1/lti/platforms/${id(platformId)}`, body),
    deleteLtiPlatform: (platformId: string) => call<LtiPlatformDeleted>("DELETE", `/v1/lti/platforms/${id(platformId)}`),
  };
}

export type KnockoutJudge = ReturnType<typeof knockoutJudge>;
