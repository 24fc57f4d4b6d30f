import { database } from "../db/database";
import { storeKey } from "./keys";

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
  const now = Date.now();
  const expiresAt = now + INSTRUCTOR_KEY_MS;
  const { key, id } = await storeKey(
    database(env.DB),
    { tenant: a.tenant, scopes: ["read", "write"], collectionId: a.collectionId, expiresAt, rateLimitPerMinute: null },
    `lti:${a.platformId}`,
    now,
    { ltiPlatformId: a.platformId },
  );
  return { key, id, expiresAt };
}
