import { and, asc, eq, inArray, isNotNull, isNull, lt } from "drizzle-orm";
import type { LinkServices } from "../lti/resource-link";
import type { Db } from "./database";
import { collectionAnswers, ltiLearners, ltiLinks, ltiLogins, ltiSessions } from "./schema";

export type LtiSessionRow = typeof ltiSessions.$inferSelect;
export type LtiLinkRow = typeof ltiLinks.$inferSelect;
export type LtiLearnerRow = typeof ltiLearners.$inferSelect;

/** Records a page's session; sessions long expired are dropped on the way (nothing else reads them). */
export async function insertSession(db: Db, row: typeof ltiSessions.$inferInsert, now: number): Promise<void> {
  await db.batch([db.delete(ltiSessions).where(lt(ltiSessions.expiresAt, now)), db.insert(ltiSessions).values(row)]);
}

/** The session of a page's token (by its hash), if it has not expired. */
export async function liveSession(db: Db, tokenHash: string, now: number): Promise<LtiSessionRow | null> {
  const row = await db.query.ltiSessions.findFirst({ where: eq(ltiSessions.tokenHash, tokenHash) });
  return row && row.expiresAt > now ? row : null;
}

/** Takes a one-use session out (deep linking): of two posts racing with it, one gets it. */
export async function consumeSession(db: Db, tokenHash: string): Promise<LtiSessionRow | null> {
  const [row] = await db.delete(ltiSessions).where(eq(ltiSessions.tokenHash, tokenHash)).returning();
  return row ?? null;
}

export async function insertLink(db: Db, row: typeof ltiLinks.$inferInsert): Promise<void> {
  await db.insert(ltiLinks).values(row);
}

export async function linkOf(db: Db, collectionId: string): Promise<LtiLinkRow | null> {
  return (await db.query.ltiLinks.findFirst({ where: eq(ltiLinks.collectionId, collectionId) })) ?? null;
}

/** The link a platform's resource link was bound to by an earlier launch (a launch without the custom claim). */
export async function linkByResource(db: Db, platformId: string, resourceLinkId: string): Promise<LtiLinkRow | null> {
  return (
    (await db.query.ltiLinks.findFirst({ where: and(eq(ltiLinks.platformId, platformId), eq(ltiLinks.resourceLinkId, resourceLinkId)) })) ??
    null
  );
}

/**
 * Binds the link to its resource link on the first launch (never rebinds: the caller refused a launch
 * through another link) and records the services the launch carries, which the platform may change.
 */
export async function recordLaunch(db: Db, collectionId: string, resourceLinkId: string, services: LinkServices, now: number) {
  await db
    .update(ltiLinks)
    .set({ ...services, updatedAt: now })
    .where(eq(ltiLinks.collectionId, collectionId));
  await db
    .update(ltiLinks)
    .set({ resourceLinkId })
    .where(and(eq(ltiLinks.collectionId, collectionId), isNull(ltiLinks.resourceLinkId)));
}

export async function learnerOf(db: Db, collectionId: string, sub: string): Promise<LtiLearnerRow | null> {
  return (
    (await db.query.ltiLearners.findFirst({ where: and(eq(ltiLearners.collectionId, collectionId), eq(ltiLearners.sub, sub)) })) ?? null
  );
}

/** Notes a learner's launch: their row made on the first, their name kept up to date (null when not sent). */
export async function noteLearner(
  db: Db,
  row: { collectionId: string; sub: string; platformId: string; name: string | null },
  now: number,
) {
  await db
    .insert(ltiLearners)
    .values({ ...row, answerId: null, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({ target: [ltiLearners.collectionId, ltiLearners.sub], set: { name: row.name, updatedAt: now } });
}

/**
 * A learner's first answer to a linked collection: the submission and the learner's row pointing at it,
 * in one batch, so an answer is never without its learner nor a learner pointing at nothing.
 */
export async function insertLearnerAnswer(
  db: Db,
  submission: typeof collectionAnswers.$inferInsert,
  learner: { sub: string; platformId: string; name: string | null },
): Promise<void> {
  const now = submission.createdAt;
  await db.batch([
    db.insert(collectionAnswers).values(submission),
    db
      .insert(ltiLearners)
      .values({ collectionId: submission.collectionId, ...learner, answerId: submission.answerId, createdAt: now, updatedAt: now })
      .onConflictDoUpdate({
        target: [ltiLearners.collectionId, ltiLearners.sub],
        set: { answerId: submission.answerId, name: learner.name, updatedAt: now },
      }),
  ]);
}

/**
 * A learner's changed answer: the text replaces the one they gave, under the same answer id and receipt
 * (their receipt shows what they last sent), and its time is the change's.
 */
export async function replaceLearnerAnswer(
  db: Db,
  a: { collectionId: string; answerId: string; sub: string; text: string; name: string | null; at: number },
): Promise<void> {
  await db.batch([
    db
      .update(collectionAnswers)
      .set({ text: a.text, name: a.name, createdAt: a.at })
      .where(and(eq(collectionAnswers.collectionId, a.collectionId), eq(collectionAnswers.answerId, a.answerId))),
    db
      .update(ltiLearners)
      .set({ name: a.name, updatedAt: a.at })
      .where(and(eq(ltiLearners.collectionId, a.collectionId), eq(ltiLearners.sub, a.sub))),
  ]);
}

/** The submission a learner's row points at, if it is still there (an erasure may have removed it). */
export async function learnerSubmission(db: Db, collectionId: string, answerId: string) {
  return (
    (await db.query.collectionAnswers.findFirst({
      where: and(eq(collectionAnswers.collectionId, collectionId), eq(collectionAnswers.answerId, answerId)),
    })) ?? null
  );
}

/**
 * Drops the sessions and the logins that expired by `now`: a session names a person (their LMS id, a
 * learner's name), a login the LMS's hint; a launch or a login drops only what it meets, the hourly
 * retention run sweeps the rest.
 */
export async function dropExpiredSessionsAndLogins(db: Db, now: number): Promise<void> {
  // a login's hint is the LMS's, which some make of the user's id: a login never finished goes too
  await db.batch([db.delete(ltiSessions).where(lt(ltiSessions.expiresAt, now)), db.delete(ltiLogins).where(lt(ltiLogins.expiresAt, now))]);
}

/** The learners of a linked collection who have an answer, each with it. */
export function ltiLearnersWithAnswers(db: Db, collectionId: string): Promise<LtiLearnerRow[]> {
  return db
    .select()
    .from(ltiLearners)
    .where(and(eq(ltiLearners.collectionId, collectionId), isNotNull(ltiLearners.answerId)))
    .orderBy(asc(ltiLearners.createdAt), asc(ltiLearners.sub));
}

/** The LTI learners of the tenant's linked collections bound to any of these answer ids (a person being erased). */
export async function ltiLearnersOfAnswers(
  db: Db,
  tenant: string,
  answerIds: readonly string[],
): Promise<{ collectionId: string; sub: string }[]> {
  const out: { collectionId: string; sub: string }[] = [];
  // D1's 100 bound parameters a statement
  for (let i = 0; i < answerIds.length; i += 90)
    out.push(
      ...(await db
        .select({ collectionId: ltiLearners.collectionId, sub: ltiLearners.sub })
        .from(ltiLearners)
        .innerJoin(ltiLinks, eq(ltiLinks.collectionId, ltiLearners.collectionId))
        .where(and(eq(ltiLinks.tenant, tenant), inArray(ltiLearners.answerId, answerIds.slice(i, i + 90))))),
    );
  return out;
}
