import { and, eq, isNull } from "drizzle-orm";
import { type Db, evaluationById } from "./evaluations";
import * as schema from "./schema";

export async function insertShareLink(
  db: Db,
  row: { tokenHash: string; evaluationId: string; tenant: string; now: number },
): Promise<void> {
  await db
    .insert(schema.shareLinks)
    .values({ tokenHash: row.tokenHash, evaluationId: row.evaluationId, tenant: row.tenant, createdAt: row.now });
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

/** The evaluation a live link points to, or null. */
export async function findSharedEvaluation(db: Db, tokenHash: string) {
  const link = await db.query.shareLinks.findFirst({
    where: and(eq(schema.shareLinks.tokenHash, tokenHash), isNull(schema.shareLinks.revokedAt)),
  });
  if (!link) return null;
  return evaluationById(db, link.evaluationId);
}
