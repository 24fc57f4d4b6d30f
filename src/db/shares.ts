import { and, eq, isNull } from "drizzle-orm";
import { evaluationById } from "./evaluations";
import { auditStatements, withAudit } from "./audit";
import type { Db } from "./database";
import * as schema from "./schema";

/** Stores a link (its token's hash) with the audit line of who made it, in one batch. */
export async function insertShareLink(
  db: Db,
  row: { tokenHash: string; evaluationId: string; tenant: string; includeExaminee: boolean; now: number },
  who: string,
): Promise<void> {
  const insert = db.insert(schema.shareLinks).values({
    tokenHash: row.tokenHash,
    evaluationId: row.evaluationId,
    tenant: row.tenant,
    includeExaminee: row.includeExaminee,
    createdAt: row.now,
  });
  await withAudit(db, [insert], [{ tenant: row.tenant, who, what: "share.create", at: row.now, evaluationId: row.evaluationId }]);
}

/**
 * Revokes every link to the evaluation; returns how many were live. The audit line is written first in
 * the same batch (a transaction), so it is kept exactly when the revocation is; it records the asking,
 * not the count, which is known only once the update has run.
 */
export async function revokeShareLinks(db: Db, tenant: string, evaluationId: string, now: number, who: string): Promise<number> {
  const { shareLinks } = schema;
  const [line] = auditStatements(db, [{ tenant, who, what: "share.revoke", at: now, evaluationId }]);
  const [, revoked] = await db.batch([
    line,
    db
      .update(shareLinks)
      .set({ revokedAt: now })
      .where(and(eq(shareLinks.evaluationId, evaluationId), eq(shareLinks.tenant, tenant), isNull(shareLinks.revokedAt)))
      .returning({ tokenHash: shareLinks.tokenHash }),
  ]);
  return revoked.length;
}

/** The evaluation a live link points to, and whether the link shows examinees; or null. */
export async function findSharedEvaluation(db: Db, tokenHash: string) {
  const link = await db.query.shareLinks.findFirst({
    where: and(eq(schema.shareLinks.tokenHash, tokenHash), isNull(schema.shareLinks.revokedAt)),
  });
  if (!link) return null;
  const evaluation = await evaluationById(db, link.evaluationId);
  return evaluation ? { evaluation, includeExaminee: link.includeExaminee } : null;
}
