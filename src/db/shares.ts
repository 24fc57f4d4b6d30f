import { and, eq, isNull } from "drizzle-orm";
import { evaluationById } from "./evaluations";
import type { Db } from "./database";
import * as schema from "./schema";

export async function insertShareLink(
  db: Db,
  row: { tokenHash: string; evaluationId: string; tenant: string; includeExaminee: boolean; now: number },
): Promise<void> {
  await db.insert(schema.shareLinks).values({
    tokenHash: row.tokenHash,
    evaluationId: row.evaluationId,
    tenant: row.tenant,
    includeExaminee: row.includeExaminee,
    createdAt: row.now,
  });
}

/** Revokes every link to the evaluation; returns how many were live. */
export async function revokeShareLinks(db: Db, tenant: string, evaluationId: string, now: number): Promise<number> {
  const { shareLinks } = schema;
  const revoked = await db
    .update(shareLinks)
    .set({ revokedAt: now })
    .where(and(eq(shareLinks.evaluationId, evaluationId), eq(shareLinks.tenant, tenant), isNull(shareLinks.revokedAt)))
    .returning({ tokenHash: shareLinks.tokenHash });
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
