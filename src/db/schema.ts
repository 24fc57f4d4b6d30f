import type { Rubric } from "../model/evaluation";
import type { CallView } from "../core/outcome";
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { SCORE_SOURCES, STATUSES } from "../model/evaluation";
import { AUDIT_VERBS, COLLECTION_STATUSES, EXTRA_PLACEMENTS, type KeyScope, TIE_BREAKS, TIE_KINDS } from "../contract/names";

/** API keys, stored only as SHA-256 hashes; each belongs to one tenant and sees only its data. */
export const apiKeys = sqliteTable("api_keys", {
  id: text("id").primaryKey(),
  tenant: text("tenant").notNull(),
  keyHash: text("key_hash").notNull().unique(),
  createdAt: integer("created_at").notNull(),
  revokedAt: integer("revoked_at"),
  /** Requests per minute for this key; null: the service's RATE_LIMIT_PER_MINUTE; 0: no limit. */
  rateLimitPerMinute: integer("rate_limit_per_minute"),
  /** What it may do (src/contract/key-request.ts); keys made before scopes keep the full access they had. */
  scopes: text("scopes", { mode: "json" }).notNull().$type<KeyScope[]>().default(["read", "write"]),
  /** Set: the key sees only this collection and the evaluation grading it; anything else is 404 to it. */
  collectionId: text("collection_id"),
  /** Unix ms after which the key is refused; null: never. */
  expiresAt: integer("expires_at"),
});

/**
 * The tenant's secret for signing webhooks (Standard Webhooks, `whsec_...`). Kept in the clear because
 * signing needs it; the previous secret still signs alongside the new one until `previous_until`, so
 * receivers can switch over without dropping deliveries.
 */
export const webhookSecrets = sqliteTable("webhook_secrets", {
  tenant: text("tenant").primaryKey(),
  secret: text("secret").notNull(),
  previousSecret: text("previous_secret"),
  previousUntil: integer("previous_until"),
  createdAt: integer("created_at").notNull(),
});

/**
 * `Idempotency-Key` per tenant: the hash of the request it first came with and, once answered, that
 * response, replayed for a retry of the same request. A row without a response is a request in progress.
 */
export const idempotencyKeys = sqliteTable(
  "idempotency_keys",
  {
    tenant: text("tenant").notNull(),
    key: text("key").notNull(),
    requestHash: text("request_hash").notNull(),
    status: integer("status"),
    body: text("body"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenant, t.key] })],
);

/** One row per evaluation (one question); the Durable Object of the same id runs it. */
export const evaluations = sqliteTable(
  "evaluations",
  {
    id: text("id").primaryKey(),
    tenant: text("tenant").notNull(),
    status: text("status", { enum: STATUSES }).notNull(),
    method: text("method").notNull(),
    debias: integer("debias", { mode: "boolean" }).notNull(),
    /** debias "adaptive" (then `debias` is true): the other order only when the judge is unsure. */
    adaptiveDebias: integer("adaptive_debias", { mode: "boolean" }).notNull().default(false),
    pairing: text("pairing", { enum: ["bracket", "round"] })
      .notNull()
      .default("round"),
    template: text("template").notNull(),
    maxScore: real("max_score").notNull(),
    /** The step final grades are rounded to; null: the template's default (evaluations made before it). */
    gradeStep: real("grade_step"),
    seed: integer("seed").notNull(),
    question: text("question").notNull(),
    reference: text("reference"),
    judgeModel: text("judge_model"),
    judgeTemperature: real("judge_temperature"),
    /** The judge is asked for JSON in the prompt's schema (the service's default when it was created). */
    structuredOutputs: integer("structured_outputs", { mode: "boolean" }).notNull().default(false),
    /** judge.scoreFrom; evaluations made before it were decided by the written scores. */
    scoreFrom: text("score_from", { enum: SCORE_SOURCES }).notNull().default("text"),
    /** The bracket's bye rule; null: "no-repeat", as evaluations made before it were paired. */
    byes: text("byes", { enum: ["paper", "no-repeat"] }),
    /** The knockout's rule for a match nothing split; null: "position", as evaluations made before it were played. */
    tieBreak: text("tie_break", { enum: TIE_BREAKS }),
    /** Where the knockout's extra calls go; null: "neighbours", as evaluations made before it were played. */
    extraPlacement: text("extra_placement", { enum: EXTRA_PLACEMENTS }),
    gradeBoundaries: text("grade_boundaries", { mode: "json" }).$type<number[]>(),
    /** `lengthControl` as asked for: the result carries length-controlled scores beside the raw ones. */
    lengthControl: integer("length_control", { mode: "boolean" }).notNull().default(false),
    /** The `max_tokens` its calls send, and the version of its prompts; null where it predates them (issue 30). */
    judgeMaxTokens: integer("judge_max_tokens"),
    /** A panel of judges; null: one judge. */
    judgePanel: text("judge_panel", { mode: "json" }).$type<string[]>(),
    /** How the panel shares the calls; null: "cycle" (panels made before "all" existed), or no panel. */
    judgePanelMode: text("judge_panel_mode", { enum: ["cycle", "all"] }),
    promptVersion: text("prompt_version"),
    /** `extraCalls` as asked for (usage's `extraCalls` is what was spent). */
    extraCallBudget: integer("extra_call_budget").notNull().default(0),
    /** `reviewShare`: evaluations made before it were flagged at 0.15, and read so still. */
    reviewShare: real("review_share").notNull().default(0.15),
    /** `reviewThreshold`; null: flags by the share alone. */
    reviewThreshold: real("review_threshold"),
    webhookUrl: text("webhook_url"),
    metadata: text("metadata", { mode: "json" }),
    rubric: text("rubric", { mode: "json" }).$type<Rubric>(),
    /** Set when the evaluation is one question of a batch (an exam). */
    batchId: text("batch_id"),
    /** The question's position in its batch's `items`. */
    batchIndex: integer("batch_index"),
    champion: text("champion"),
    error: text("error"),
    judgeCalls: integer("judge_calls").notNull().default(0),
    promptTokens: integer("prompt_tokens").notNull().default(0),
    completionTokens: integer("completion_tokens").notNull().default(0),
    retries: integer("retries").notNull().default(0),
    parseFailures: integer("parse_failures").notNull().default(0),
    sharedPrefixTokens: integer("shared_prefix_tokens").notNull().default(0),
    extraCalls: integer("extra_calls").notNull().default(0),
    callsSaved: integer("calls_saved").notNull().default(0),
    /** `feedback` as asked for: "judge" writes one feedback per answer after the tournament. */
    feedback: text("feedback", { enum: ["none", "judge"] })
      .notNull()
      .default("none"),
    feedbackCalls: integer("feedback_calls").notNull().default(0),
    /** Erased this many days after creation (the retention run); null: the tenant's retention. */
    retentionDays: integer("retention_days"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    completedAt: integer("completed_at"),
  },
  (t) => [index("evaluations_tenant_created").on(t.tenant, t.createdAt, t.id), index("evaluations_batch").on(t.batchId)],
);

/**
 * A batch: many questions (evaluations) sent at once, e.g. one exam. Its progress and exam-level
 * scores are read from its evaluations, so nothing here has to be kept in step with them.
 */
export const batches = sqliteTable(
  "batches",
  {
    id: text("id").primaryKey(),
    tenant: text("tenant").notNull(),
    total: integer("total").notNull(),
    /** Its questions that have ended, by how: counted as each ends (evaluations/finish.ts), never recounted. */
    completed: integer("completed").notNull().default(0),
    failed: integer("failed").notNull().default(0),
    cancelled: integer("cancelled").notNull().default(0),
    webhookUrl: text("webhook_url"),
    metadata: text("metadata", { mode: "json" }),
    /** Erased, with its questions, this many days after creation; null: the tenant's retention. */
    retentionDays: integer("retention_days"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("batches_tenant_created").on(t.tenant, t.createdAt)],
);

export const answers = sqliteTable(
  "answers",
  {
    evaluationId: text("evaluation_id").notNull(),
    answerId: text("answer_id").notNull(),
    position: integer("position").notNull(),
    text: text("text").notNull(),
    examinee: text("examinee"),
    score: real("score"),
    scores: text("scores", { mode: "json" }).$type<number[]>(),
    eliminatedInRound: integer("eliminated_in_round"),
    rank: integer("rank"),
    strength: real("strength"),
    criteria: text("criteria", { mode: "json" }).$type<Record<string, number>>(),
    /** The judge's feedback for the student (plain text), or null: none asked, or its call failed (`feedback_error`). */
    feedback: text("feedback"),
    feedbackError: text("feedback_error"),
    feedbackAt: integer("feedback_at"),
  },
  (t) => [primaryKey({ columns: [t.evaluationId, t.answerId] })],
);

// A match carries its judge calls (`calls`, migration 0027): D1 bills rows written, and the calls had a
// table of their own (two rows written a call, its row and its key's entry; 1.93 calls an answer). Now
// a match writes two rows (its row and its key's entry) whatever its calls. matches is a rowid table
// again (it was WITHOUT ROWID from 0026 to 0027): its rows now carry the judge's words, hundreds of bytes
// to a few KB, and a WITHOUT ROWID row of more than about a thousand bytes spills to an overflow page of
// its own (about twice the storage, billed every month), where a rowid row stays on its page up to about
// 4 KB. The same holds for answers (their texts): both stay rowid tables.
export const matches = sqliteTable(
  "matches",
  {
    evaluationId: text("evaluation_id").notNull(),
    idx: integer("idx").notNull(),
    round: integer("round").notNull(),
    a: text("a").notNull(),
    /** Null for a pointwise judgment of `a` alone (method "individual"). */
    b: text("b"),
    scoreA: real("score_a"),
    scoreB: real("score_b"),
    winner: text("winner"),
    tie: text("tie", { enum: TIE_KINDS }),
    ordersDisagree: integer("orders_disagree", { mode: "boolean" }),
    /** Played after the knockout with the evaluation's extra calls. */
    extra: integer("extra", { mode: "boolean" }).notNull().default(false),
    /**
     * Every judge call of the match that produced a result, in call order, as the API shows it: the
     * order the judge saw, its scores in that order, its text (`raw`), and what else was kept of it.
     */
    calls: text("calls", { mode: "json" }).notNull().$type<CallView[]>().default([]),
  },
  (t) => [primaryKey({ columns: [t.evaluationId, t.idx] })],
);

/** Read-only links to one finished evaluation; only the token's hash is kept, like API keys. */
export const shareLinks = sqliteTable(
  "share_links",
  {
    tokenHash: text("token_hash").primaryKey(),
    evaluationId: text("evaluation_id").notNull(),
    tenant: text("tenant").notNull(),
    createdAt: integer("created_at").notNull(),
    revokedAt: integer("revoked_at"),
    /** The owner asked, when sharing, for each answer's examinee (often a name or an e-mail) to be shown. */
    includeExaminee: integer("include_examinee", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [index("share_links_evaluation").on(t.evaluationId)],
);

/** An open question that collects answers through an embeddable form, then grades them when it closes. */
export const collections = sqliteTable(
  "collections",
  {
    id: text("id").primaryKey(),
    tenant: text("tenant").notNull(),
    /** Public by design (it is in the embed snippet): it can only submit answers to this collection. */
    publicToken: text("public_token").notNull().unique(),
    /** The evaluation settings (question, reference, maxScore, method, template, debias), as JSON. */
    settings: text("settings", { mode: "json" }).notNull(),
    allowedOrigins: text("allowed_origins", { mode: "json" }).notNull().$type<string[]>(),
    deadline: integer("deadline"),
    maxAnswers: integer("max_answers"),
    webhookUrl: text("webhook_url"),
    /** `failed`: closed, and it could not be graded (`error` says why). */
    status: text("status", { enum: COLLECTION_STATUSES }).notNull(),
    closedAt: integer("closed_at"),
    closedBy: text("closed_by"),
    /**
     * The evaluation the closing started, or why none could be (fewer than two answers, settings that
     * make no valid evaluation, grading that could not start before its deadline).
     */
    evaluationId: text("evaluation_id"),
    error: text("error"),
    /** Erased, with its answers and their grading, this many days after creation; null: the tenant's retention. */
    retentionDays: integer("retention_days"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("collections_tenant_created").on(t.tenant, t.createdAt)],
);

/** One submitted answer; its receipt token (kept only as a hash) shows the submitter this answer's result. */
export const collectionAnswers = sqliteTable(
  "collection_answers",
  {
    collectionId: text("collection_id").notNull(),
    answerId: text("answer_id").notNull(),
    position: integer("position").notNull(),
    text: text("text").notNull(),
    name: text("name"),
    receiptHash: text("receipt_hash").notNull().unique(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.collectionId, t.answerId] })],
);

/**
 * A teacher's grades of answers, append-only: every change is a row (a withdrawal has `score` null), the
 * latest row of an answer is its grade, and the judge's own record is never touched.
 */
export const teacherGrades = sqliteTable(
  "teacher_grades",
  {
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    tenant: text("tenant").notNull(),
    evaluationId: text("evaluation_id").notNull(),
    answerId: text("answer_id").notNull(),
    /** Null: the grade was withdrawn. */
    score: real("score"),
    note: text("note"),
    gradedAt: integer("graded_at").notNull(),
  },
  (t) => [index("teacher_grades_answer").on(t.evaluationId, t.answerId, t.seq)],
);

/**
 * Releases of answers to their students, append-only like grades: every release and withdrawal is a
 * row, the latest row of an answer says whether it is released (and since when).
 */
export const answerReleases = sqliteTable(
  "answer_releases",
  {
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    tenant: text("tenant").notNull(),
    evaluationId: text("evaluation_id").notNull(),
    answerId: text("answer_id").notNull(),
    action: text("action", { enum: ["released", "withdrawn"] }).notNull(),
    at: integer("at").notNull(),
  },
  (t) => [index("answer_releases_answer").on(t.evaluationId, t.answerId, t.seq)],
);

/**
 * A teacher's edits of the feedback a student reads, append-only like their grades: the latest row of
 * an answer is its feedback (else the judge's, in `answers.feedback`), and the judge's is never touched.
 */
export const feedbackEdits = sqliteTable(
  "feedback_edits",
  {
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    tenant: text("tenant").notNull(),
    evaluationId: text("evaluation_id").notNull(),
    answerId: text("answer_id").notNull(),
    text: text("text").notNull(),
    editedAt: integer("edited_at").notNull(),
  },
  (t) => [index("feedback_edits_answer").on(t.evaluationId, t.answerId, t.seq)],
);

/**
 * What an audit line may say beyond its ids: a closed set of fields, none a text, so a caller cannot
 * pass an answer, a feedback or a name into the trail by accident (the type refuses it).
 */
export interface AuditDetail {
  scopes?: KeyScope[];
  expiresAt?: string | null;
  count?: number;
  /** The batch an erasure line is about (the line's other ids name evaluations and collections). */
  batchId?: string;
  /** A `settings.change`: the tenant's retention from then on (null: none). */
  retentionDays?: number | null;
  /** The LTI platform an `lti-platform.*` line is about, and the fields a change touched (names only). */
  ltiPlatformId?: string;
  fields?: string[];
}

/**
 * The audit trail: who (a key's id, or "admin") did what to which resource of a tenant, and when.
 * Append-only, and ids only: no answer text, feedback text, score or name is ever written here, so an
 * erasure of a student's data can keep the lines (clearing `answer_id` where it names the student).
 */
export const auditLog = sqliteTable(
  "audit_log",
  {
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    tenant: text("tenant").notNull(),
    at: integer("at").notNull(),
    who: text("who").notNull(),
    what: text("what", { enum: AUDIT_VERBS }).notNull(),
    evaluationId: text("evaluation_id"),
    answerId: text("answer_id"),
    collectionId: text("collection_id"),
    keyId: text("key_id"),
    detail: text("detail", { mode: "json" }).$type<AuditDetail>(),
  },
  (t) => [index("audit_log_tenant_at").on(t.tenant, t.at, t.seq)],
);

/**
 * What an erasure leaves of an evaluation, a batch or a collection: its id, whose it was, the key that
 * erased it and when, so that every route answers 410 for it rather than a 404. The row is written
 * `erasing` before anything is deleted and set `erased` once every deletion is done: an erasure cut off
 * in the middle is finished by the next request that meets it. `within`: the batch or collection whose
 * erasure erased this evaluation (its deletions are found through it after its rows are gone).
 */
export const erasures = sqliteTable(
  "erasures",
  {
    id: text("id").primaryKey(),
    tenant: text("tenant").notNull(),
    kind: text("kind", { enum: ["evaluation", "batch", "collection", "tenant"] }).notNull(),
    state: text("state", { enum: ["erasing", "erased"] }).notNull(),
    by: text("by").notNull(),
    within: text("within"),
    requestedAt: integer("requested_at").notNull(),
    erasedAt: integer("erased_at"),
  },
  (t) => [index("erasures_within").on(t.within)],
);

/**
 * The hashes of the tokens that reached something erased (a receipt, a collection's public token), so
 * that such a link answers 410 "removed" rather than "no such receipt". A hash names no one.
 */
export const erasedTokens = sqliteTable("erased_tokens", {
  tokenHash: text("token_hash").primaryKey(),
  erasureId: text("erasure_id").notNull(),
});

/**
 * A tenant's own settings (PUT /v1/tenant/settings). `retention_days`: what it makes is erased this
 * many days after its creation by the hourly retention run, unless it names its own; null: never.
 */
export const tenantSettings = sqliteTable("tenant_settings", {
  tenant: text("tenant").primaryKey(),
  retentionDays: integer("retention_days"),
  updatedAt: integer("updated_at").notNull(),
});

/**
 * The LTI 1.3 platforms (LMSs) a tenant registered. An issuer and client id name one platform across
 * every tenant: a launch arrives with only those two, and must reach exactly one tenant.
 */
export const ltiPlatforms = sqliteTable(
  "lti_platforms",
  {
    id: text("id").primaryKey(),
    tenant: text("tenant").notNull(),
    issuer: text("issuer").notNull(),
    clientId: text("client_id").notNull(),
    deploymentIds: text("deployment_ids", { mode: "json" }).notNull().$type<string[]>(),
    authLoginUrl: text("auth_login_url").notNull(),
    accessTokenUrl: text("access_token_url").notNull(),
    jwksUrl: text("jwks_url").notNull(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [uniqueIndex("lti_platforms_issuer_client").on(t.issuer, t.clientId), index("lti_platforms_tenant").on(t.tenant)],
);

/**
 * An OIDC login in progress (`/lti/login` to `/lti/launch`): the state and nonce sent to the platform,
 * bound to the browser by a cookie named after the state, with the login's hints to start it again.
 * Consumed (deleted) by the launch that uses it,
 * so a nonce is used once and a replayed launch finds nothing; a login never finished expires.
 */
export const ltiLogins = sqliteTable(
  "lti_logins",
  {
    state: text("state").primaryKey(),
    nonce: text("nonce").notNull(),
    platformId: text("platform_id").notNull(),
    /** The login's own parameters, to start it again in a new window when the frame kept no cookie. */
    loginHint: text("login_hint").notNull(),
    messageHint: text("message_hint"),
    targetLinkUri: text("target_link_uri").notNull(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [index("lti_logins_expires").on(t.expiresAt)],
);

/**
 * A graded question placed in a course by LTI deep linking: the collection behind it, the platform and
 * course it lives in, and what the launches taught about it (the resource link the platform gave it,
 * the gradebook column to post scores to, the course roster's URL). The resource link and the service
 * URLs arrive with the first launch, not with the deep linking that created the row.
 */
export const ltiLinks = sqliteTable(
  "lti_links",
  {
    collectionId: text("collection_id").primaryKey(),
    tenant: text("tenant").notNull(),
    platformId: text("platform_id").notNull(),
    deploymentId: text("deployment_id").notNull(),
    contextId: text("context_id"),
    contextTitle: text("context_title"),
    /** The platform's id of the link, from the first launch through it. */
    resourceLinkId: text("resource_link_id"),
    /** AGS: the line item (gradebook column) scores go to, and the scopes the platform granted. */
    lineItemUrl: text("line_item_url"),
    lineItemsUrl: text("line_items_url"),
    agsScopes: text("ags_scopes", { mode: "json" }).$type<string[]>(),
    /** NRPS: the course's membership URL, when the launch carried the service claim. */
    membershipsUrl: text("memberships_url"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("lti_links_resource").on(t.platformId, t.resourceLinkId), index("lti_links_tenant").on(t.tenant)],
);

/**
 * A learner known by their launches of a linked collection: the platform's `sub` (the id scores are
 * posted under), the name the platform sent, and their one answer once they gave it.
 */
export const ltiLearners = sqliteTable(
  "lti_learners",
  {
    collectionId: text("collection_id").notNull(),
    sub: text("sub").notNull(),
    platformId: text("platform_id").notNull(),
    name: text("name"),
    answerId: text("answer_id"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.collectionId, t.sub] }), index("lti_learners_answer").on(t.collectionId, t.answerId)],
);

/**
 * What a launch lets its browser do next, held by the page as a random token (only its hash is kept):
 * an instructor's deep linking form (`deep-linking`: the platform's return URL and `data` to echo, used
 * once) or a learner's answer form (`learner`: their collection and `sub`). A token in the page rather
 * than a cookie, because a browser that blocks third-party cookies keeps none in the LMS's frame; a
 * cross-site form cannot know it, so it needs no CSRF guard. Expired rows are dropped on the way.
 */
export const ltiSessions = sqliteTable(
  "lti_sessions",
  {
    tokenHash: text("token_hash").primaryKey(),
    kind: text("kind", { enum: ["deep-linking", "learner"] }).notNull(),
    tenant: text("tenant").notNull(),
    platformId: text("platform_id").notNull(),
    deploymentId: text("deployment_id").notNull(),
    /** The learner's collection; null for deep linking (it makes one). */
    collectionId: text("collection_id"),
    /** Who launched: the platform's id of the user. */
    sub: text("sub").notNull(),
    /** The learner's name as the platform sent it. */
    name: text("name"),
    contextId: text("context_id"),
    contextTitle: text("context_title"),
    /** Deep linking: where the response goes, and the `data` to echo to it. */
    returnUrl: text("return_url"),
    data: text("data"),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [index("lti_sessions_expires").on(t.expiresAt), index("lti_sessions_sub").on(t.sub)],
);
