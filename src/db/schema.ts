import { index, integer, primaryKey, real, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** API keys, stored only as SHA-256 hashes; each belongs to one tenant and sees only its data. */
export const apiKeys = sqliteTable("api_keys", {
  id: text("id").primaryKey(),
  tenant: text("tenant").notNull(),
  keyHash: text("key_hash").notNull().unique(),
  createdAt: integer("created_at").notNull(),
  revokedAt: integer("revoked_at"),
});

/** One row per evaluation (one question); the Durable Object of the same id runs it. */
export const evaluations = sqliteTable(
  "evaluations",
  {
    id: text("id").primaryKey(),
    tenant: text("tenant").notNull(),
    status: text("status", { enum: ["queued", "running", "completed", "failed"] }).notNull(),
    method: text("method").notNull(),
    debias: integer("debias", { mode: "boolean" }).notNull(),
    pairing: text("pairing", { enum: ["bracket", "round"] }).notNull().default("round"),
    template: text("template").notNull(),
    maxScore: real("max_score").notNull(),
    seed: integer("seed").notNull(),
    question: text("question").notNull(),
    reference: text("reference"),
    judgeModel: text("judge_model"),
    judgeTemperature: real("judge_temperature"),
    webhookUrl: text("webhook_url"),
    metadata: text("metadata", { mode: "json" }),
    champion: text("champion"),
    error: text("error"),
    judgeCalls: integer("judge_calls").notNull().default(0),
    promptTokens: integer("prompt_tokens").notNull().default(0),
    completionTokens: integer("completion_tokens").notNull().default(0),
    retries: integer("retries").notNull().default(0),
    parseFailures: integer("parse_failures").notNull().default(0),
    sharedPrefixTokens: integer("shared_prefix_tokens").notNull().default(0),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    completedAt: integer("completed_at"),
  },
  (t) => [index("evaluations_tenant_created").on(t.tenant, t.createdAt)],
);

export const answers = sqliteTable(
  "answers",
  {
    evaluationId: text("evaluation_id").notNull(),
    answerId: text("answer_id").notNull(),
    position: integer("position").notNull(),
    text: text("text").notNull(),
    score: real("score"),
    scores: text("scores", { mode: "json" }).$type<number[]>(),
    eliminatedInRound: integer("eliminated_in_round"),
    rank: integer("rank"),
  },
  (t) => [primaryKey({ columns: [t.evaluationId, t.answerId] })],
);

export const matches = sqliteTable(
  "matches",
  {
    evaluationId: text("evaluation_id").notNull(),
    idx: integer("idx").notNull(),
    round: integer("round").notNull(),
    a: text("a").notNull(),
    b: text("b").notNull(),
    scoreA: real("score_a"),
    scoreB: real("score_b"),
    winner: text("winner"),
  },
  (t) => [primaryKey({ columns: [t.evaluationId, t.idx] })],
);

/** Every judge call that produced a result: the order the judge saw, its scores in that order, its text. */
export const judgeCalls = sqliteTable(
  "judge_calls",
  {
    evaluationId: text("evaluation_id").notNull(),
    matchIdx: integer("match_idx").notNull(),
    callIdx: integer("call_idx").notNull(),
    order: text("order", { mode: "json" }).notNull().$type<string[]>(),
    scores: text("scores", { mode: "json" }).notNull().$type<number[]>(),
    raw: text("raw").notNull(),
    promptTokens: integer("prompt_tokens").notNull().default(0),
    completionTokens: integer("completion_tokens").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.evaluationId, t.matchIdx, t.callIdx] })],
);
