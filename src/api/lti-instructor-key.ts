import { withAudit } from "../db/audit";
import { database } from "../db/database";
import { apiKeys } from "../db/schema";
import { hashToken } from "../platform/tokens";
import { newKey } from "./auth";

/** How long an instructor's launch lets their pages act on the collection. */
export const INSTRUCTOR_KEY_MS = 2 * 60 * 60_000;

/**
 * A key for an instructor's launch (issue 27's scoped keys): limited to the one collection and the
 * evaluation grading it (any other route is a 404 to it), `read` and `write` (grades, feedback,
 * releases, closing; never `admin`: no erasure, export, key or platform), expiring in two hours. Only
 * its hash is stored; its audit line names the platform whose launch made it, not the person.
 */
export async function mintInstructorKey(
  env: Env,
  a: { tenant: string; collectionId: string; platformId: string },
): Promise<{ key: string; id: string; expiresAt: number }> {
  const db = database(env.DB);
  const key = newKey();
  const id = crypto.randomUUID();
  const now = Date.now();
  const expiresAt = now + INSTRUCTOR_KEY_MS;
  const scopes = ["read", "write"] as const;
  await withAudit(
    db,
    [
      db.insert(apiKeys).values({
        id,
        tenant: a.tenant,
        keyHash: await hashToken(key),
        createdAt: now,
        rateLimitPerMinute: null,
        scopes: [...scopes],
        collectionId: a.collectionId,
        expiresAt,
      }),
    ],
    [
      {
        tenant: a.tenant,
        who: `lti:${a.platformId}`,
        what: "key.create",
        at: now,
        keyId: id,
        collectionId: a.collectionId,
        detail: { scopes: [...scopes], expiresAt: new Date(expiresAt).toISOString(), ltiPlatformId: a.platformId },
      },
    ],
  );
  return { key, id, expiresAt };
}
