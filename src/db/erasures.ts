import { eq } from "drizzle-orm";
import type { ErasureKind, Tombstone } from "../model/erasure";
import type { Db } from "./database";
import * as schema from "./schema";

export async function findTombstone(db: Db, id: string): Promise<Tombstone | null> {
  return ((await db.query.erasures.findFirst({ where: eq(schema.erasures.id, id) })) as Tombstone | undefined) ?? null;
}

/**
 * Records the intent to erase `id` (and, for a batch or collection, each of its evaluations `parts`)
 * before anything is deleted, in one transaction: from here on every route answers 410 for them and the
 * next request that meets one finishes the erasure. A tombstone already there is kept as it is.
 */
export async function beginErasure(
  d1: D1Database,
  e: { id: string; tenant: string; kind: ErasureKind | "tenant"; by: string; now: number; parts?: string[] },
): Promise<void> {
  const insert = d1.prepare(
    `INSERT INTO erasures (id, tenant, kind, state, by, within, requested_at) VALUES (?, ?, ?, 'erasing', ?, ?, ?)
     ON CONFLICT (id) DO NOTHING`,
  );
  await d1.batch([
    insert.bind(e.id, e.tenant, e.kind, e.by, null, e.now),
    ...(e.parts ?? []).map((part) => insert.bind(part, e.tenant, "evaluation", e.by, e.id, e.now)),
  ]);
}

/** Every deletion is done: the tombstone (and its parts') say so. */
export async function finishErasure(d1: D1Database, id: string, now: number): Promise<void> {
  await d1
    .prepare("UPDATE erasures SET state = 'erased', erased_at = ?2 WHERE (id = ?1 OR within = ?1) AND state = 'erasing'")
    .bind(id, now)
    .run();
}

/** The evaluations an erasure of `id` covers: itself (an evaluation), or those recorded within it. */
export async function erasedEvaluations(d1: D1Database, id: string): Promise<string[]> {
  const rows = await d1
    .prepare("SELECT id FROM erasures WHERE kind = 'evaluation' AND (id = ?1 OR within = ?1)")
    .bind(id)
    .all<{ id: string }>();
  return rows.results.map((r) => r.id);
}

/**
 * Deletes, from every D1 table, what the erasure of `id` covers: each of its evaluations' answers,
 * matches (their judge calls with them), grades, releases, feedback edits and rows, the batch or
 * collection itself with its submitted answers (their receipt hashes kept in `erased_tokens` first, so
 * receipts answer 410) and its LTI rows (learners, sessions, link), and the idempotency rows whose kept
 * response names any of them. Idempotent: run again, it finds nothing.
 */
export async function deleteErasedRows(d1: D1Database, tenant: string, id: string, publicTokenHash: string | null): Promise<void> {
  const covered = "SELECT id FROM erasures WHERE kind = 'evaluation' AND (id = ?1 OR within = ?1)";
  const byEvaluation = ["answers", "matches", "teacher_grades", "answer_releases", "feedback_edits"].map((table) =>
    d1.prepare(`DELETE FROM ${table} WHERE evaluation_id IN (${covered})`).bind(id),
  );
  await d1.batch([
    ...byEvaluation,
    // the audit trail keeps its lines (who did what, when); only the answer they named goes
    d1.prepare(`UPDATE audit_log SET answer_id = NULL WHERE evaluation_id IN (${covered})`).bind(id),
    d1.prepare(`DELETE FROM evaluations WHERE id IN (${covered})`).bind(id),
    d1.prepare("DELETE FROM batches WHERE id = ? AND tenant = ?").bind(id, tenant),
    d1
      .prepare(
        "INSERT INTO erased_tokens (token_hash, erasure_id) SELECT receipt_hash, collection_id FROM collection_answers WHERE collection_id = ? ON CONFLICT DO NOTHING",
      )
      .bind(id),
    ...(publicTokenHash
      ? [d1.prepare("INSERT INTO erased_tokens (token_hash, erasure_id) VALUES (?, ?) ON CONFLICT DO NOTHING").bind(publicTokenHash, id)]
      : []),
    d1.prepare("DELETE FROM collection_answers WHERE collection_id = ?").bind(id),
    // a collection placed in a course: its learners (their LMS ids and names), their pages' sessions, its link
    d1.prepare("DELETE FROM lti_learners WHERE collection_id = ?").bind(id),
    d1.prepare("DELETE FROM lti_sessions WHERE collection_id = ?").bind(id),
    d1.prepare("DELETE FROM lti_links WHERE collection_id = ? AND tenant = ?").bind(id, tenant),
    d1.prepare("DELETE FROM collections WHERE id = ? AND tenant = ?").bind(id, tenant),
    // a replayed response names what it made: such rows go, as do the anonymous answerers' of a collection
    d1
      .prepare(
        `DELETE FROM idempotency_keys WHERE tenant = ?2 AND body IS NOT NULL
         AND EXISTS (SELECT 1 FROM erasures e WHERE (e.id = ?1 OR e.within = ?1) AND instr(idempotency_keys.body, e.id) > 0)`,
      )
      .bind(id, tenant),
    d1.prepare("DELETE FROM idempotency_keys WHERE tenant = ?").bind(`:collection:${id}`),
  ]);
}

/** The erasure a token of something erased leads to (a receipt, a collection's public token), or null. */
export async function erasedToken(db: Db, tokenHash: string): Promise<string | null> {
  return (await db.query.erasedTokens.findFirst({ where: eq(schema.erasedTokens.tokenHash, tokenHash) }))?.erasureId ?? null;
}

/** Whether a share link (by its token's hash) points to an erased evaluation. */
export async function erasedShare(db: Db, tokenHash: string): Promise<boolean> {
  const link = await db.query.shareLinks.findFirst({ where: eq(schema.shareLinks.tokenHash, tokenHash) });
  return link ? (await findTombstone(db, link.evaluationId)) !== null : false;
}

/** Whether the tenant has, or ever had, an API key. */
export async function tenantKnown(d1: D1Database, tenant: string): Promise<boolean> {
  return (await d1.prepare("SELECT 1 AS known FROM api_keys WHERE tenant = ? LIMIT 1").bind(tenant).first()) !== null;
}

/** Revokes every key of the tenant still live: nothing it asks is done from here on. */
export async function revokeTenantKeys(d1: D1Database, tenant: string, now: number): Promise<void> {
  await d1.prepare("UPDATE api_keys SET revoked_at = ? WHERE tenant = ? AND revoked_at IS NULL").bind(now, tenant).run();
}

/** What the tenant still owns, by kind: the collections, then the batches, then the evaluations left. */
export async function tenantHoldings(d1: D1Database, tenant: string): Promise<{ kind: ErasureKind; id: string }[]> {
  const [collections, batches, evaluations] = await d1.batch<{ id: string }>([
    d1.prepare("SELECT id FROM collections WHERE tenant = ?").bind(tenant),
    d1.prepare("SELECT id FROM batches WHERE tenant = ?").bind(tenant),
    d1.prepare("SELECT id FROM evaluations WHERE tenant = ? AND batch_id IS NULL").bind(tenant),
  ]);
  return [
    ...collections.results.map((r) => ({ kind: "collection" as const, id: r.id })),
    ...batches.results.map((r) => ({ kind: "batch" as const, id: r.id })),
    ...evaluations.results.map((r) => ({ kind: "evaluation" as const, id: r.id })),
  ];
}

/** The tenant's own rows that are about no one item: its webhook secret, settings and every idempotency row. */
export async function deleteTenantRows(d1: D1Database, tenant: string): Promise<void> {
  await d1.batch([
    d1.prepare("DELETE FROM tenant_settings WHERE tenant = ?").bind(tenant),
    d1.prepare("DELETE FROM webhook_secrets WHERE tenant = ?").bind(tenant),
    d1.prepare("DELETE FROM idempotency_keys WHERE tenant = ?").bind(tenant),
    // its LMS registrations: launches from them are refused, and the issuer and client id are free again
    d1.prepare("DELETE FROM lti_platforms WHERE tenant = ?").bind(tenant),
    // the pages' sessions left (a deep linking form never posted names its instructor's sub)
    d1.prepare("DELETE FROM lti_sessions WHERE tenant = ?").bind(tenant),
  ]);
}
