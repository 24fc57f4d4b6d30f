import type { Erased } from "../contract/erasure";
import { findBatch, batchEvaluations } from "../db/batches";
import { collectionById, findCollection } from "../db/collections";
import { database } from "../db/database";
import { beginErasure, deleteErasedRows, erasedEvaluations, erasedShare, erasedToken, findTombstone, finishErasure } from "../db/erasures";
import { findEvaluation } from "../db/evaluations";
import { type AuditEntry, audit } from "../db/audit";
import { type ErasureKind, eraseVerdict, erasedView, type Tombstone } from "../model/erasure";
import { ProblemError } from "../platform/problems";
import { collectionStub, ltiScoresStub, tournamentStub, webhookQueueStub } from "../platform/stubs";
import { hashToken } from "../platform/tokens";

/** Evaluation objects erased at once: a 1,000-question batch in bounded waves, not 1,000 calls at once. */
const OBJECTS_AT_ONCE = 16;

/**
 * Erases an evaluation, a batch (with its questions) or a collection (with its answers and the
 * evaluation that graded them) of `tenant`, as asked by API key `by`: the intent is recorded first (a
 * tombstone `erasing`, for it and each of its evaluations), then every deletion is made, each of them
 * idempotent, then the tombstone says `erased`. A second request for the same is the same 200; one
 * whose first was cut off in the middle finishes it. Another tenant's, or none, is a 404.
 */
export async function erase(env: Env, tenant: string, kind: ErasureKind, id: string, by: string): Promise<Erased> {
  const db = database(env.DB);
  const tombstone = await findTombstone(db, id);
  const parts = tombstone ? null : await partsOf(env, tenant, kind, id);
  const verdict = eraseVerdict(tenant, kind, tombstone, parts !== null);
  if (verdict === "not-found") throw new ProblemError(404, `no such ${kind}`);
  if (verdict === "done") return erasedView(tombstone!);
  if (verdict === "start") {
    const now = Date.now();
    await beginErasure(env.DB, { id, tenant, kind, by, now, parts: parts! });
    // ids only: what was erased is gone, the line that it was (and by whom) stays
    await audit(db, { tenant, who: by, what: `${kind}.erase`, at: now, ...erasedIds(kind, id) });
  }
  return erasedView(await carryOut(env, (await findTombstone(db, id))!));
}

function erasedIds(kind: ErasureKind, id: string): Pick<AuditEntry, "evaluationId" | "collectionId" | "detail"> {
  if (kind === "evaluation") return { evaluationId: id };
  if (kind === "collection") return { collectionId: id };
  return { detail: { batchId: id } };
}

/**
 * Makes every deletion of a recorded erasure and marks it done; idempotent, so an erasure cut off in the
 * middle (a crash, a lost request) is finished by running it again: by the next request that meets its
 * tombstone, or by a new erase request.
 */
export async function carryOut(env: Env, t: Tombstone): Promise<Tombstone> {
  if (t.state === "erased") return t;
  const evaluations = await erasedEvaluations(env.DB, t.id);
  // the collection first: its alarm would otherwise close it and start grading the answers being erased
  let publicTokenHash: string | null = null;
  if (t.kind === "collection") {
    const row = await collectionById(database(env.DB), t.id);
    if (row) publicTokenHash = await hashToken(row.publicToken);
    await collectionStub(env, t.id).erase();
    // its grade passback queue: the scores and feedback posted to an LTI course, with their log
    await ltiScoresStub(env, t.id).forgetAll();
  }
  // each tournament stops (a running one is cancelled) and forgets, before D1 loses its rows
  for (let i = 0; i < evaluations.length; i += OBJECTS_AT_ONCE)
    await Promise.all(evaluations.slice(i, i + OBJECTS_AT_ONCE).map((ev) => tournamentStub(env, ev).erase(ev)));
  await deleteErasedRows(env.DB, t.tenant, t.id, publicTokenHash);
  // after the tournaments have stopped: none of them can queue a webhook about what is being erased
  await webhookQueueStub(env, t.tenant).forget([t.id, ...evaluations]);
  await finishErasure(env.DB, t.id, Date.now());
  return (await findTombstone(database(env.DB), t.id))!;
}

/**
 * What an erasure of `id` covers besides itself, or null if the tenant has no such thing: a batch's
 * questions; a collection's evaluation (by the id its grading gives it, made or about to be).
 */
async function partsOf(env: Env, tenant: string, kind: ErasureKind, id: string): Promise<string[] | null> {
  const db = database(env.DB);
  if (kind === "evaluation") return (await findEvaluation(db, tenant, id)) ? [] : null;
  if (kind === "batch") return (await findBatch(db, tenant, id)) ? (await batchEvaluations(db, id)).map((e) => e.id) : null;
  const row = await findCollection(db, tenant, id);
  if (!row) return null;
  return [row.evaluationId ?? `ev_${id.replace(/^col_/, "")}`];
}

/**
 * The tombstone the caller's request meets, finished if its erasure was cut off, or null when it may
 * not learn of one (no tombstone, another kind, or another tenant's: the route answers as it would).
 */
export async function tombstoneFor(env: Env, tenant: string, kind: ErasureKind, id: string): Promise<Tombstone | null> {
  const t = await findTombstone(database(env.DB), id);
  if (!t || t.tenant !== tenant || t.kind !== kind) return null;
  return carryOut(env, t);
}

/**
 * Whether a public token (a receipt's, a collection's public one, or a share link's) led to something
 * since erased: such a link answers 410 "removed" rather than 404.
 */
export async function tokenOfErased(env: Env, token: string): Promise<boolean> {
  const db = database(env.DB);
  const hash = await hashToken(token);
  return (await erasedToken(db, hash)) !== null || (await erasedShare(db, hash));
}
