import { and, asc, eq, inArray, isNotNull, lt } from "drizzle-orm";
import type { Db } from "./database";
import { ltiLearners, ltiLinks, ltiLogins, ltiPlatforms } from "./schema";

export type LtiPlatformRow = typeof ltiPlatforms.$inferSelect;

/** The tenant's platforms, oldest first. */
export function platformsOf(db: Db, tenant: string): Promise<LtiPlatformRow[]> {
  return db.select().from(ltiPlatforms).where(eq(ltiPlatforms.tenant, tenant)).orderBy(asc(ltiPlatforms.createdAt), asc(ltiPlatforms.id));
}

/** One of the tenant's platforms; another tenant's is not found, as if it did not exist. */
export async function platformOf(db: Db, tenant: string, id: string): Promise<LtiPlatformRow | null> {
  return (await db.query.ltiPlatforms.findFirst({ where: and(eq(ltiPlatforms.tenant, tenant), eq(ltiPlatforms.id, id)) })) ?? null;
}

/** The platforms with this issuer (a launch's), whatever their tenant. */
export function platformsByIssuer(db: Db, issuer: string): Promise<LtiPlatformRow[]> {
  return db.select().from(ltiPlatforms).where(eq(ltiPlatforms.issuer, issuer));
}

export async function platformById(db: Db, id: string): Promise<LtiPlatformRow | null> {
  return (await db.query.ltiPlatforms.findFirst({ where: eq(ltiPlatforms.id, id) })) ?? null;
}

/** The registration that holds this issuer and client id, in any tenant: what a 409 is about. */
export async function platformByIssuerClient(db: Db, issuer: string, clientId: string): Promise<LtiPlatformRow | null> {
  return (
    (await db.query.ltiPlatforms.findFirst({ where: and(eq(ltiPlatforms.issuer, issuer), eq(ltiPlatforms.clientId, clientId)) })) ?? null
  );
}

/** Records a login's state and nonce; logins long expired are dropped on the way (nothing else reads them). */
export async function insertLogin(db: Db, login: typeof ltiLogins.$inferInsert, now: number): Promise<void> {
  await db.batch([db.delete(ltiLogins).where(lt(ltiLogins.expiresAt, now)), db.insert(ltiLogins).values(login)]);
}

/**
 * Takes the login of `state` out, in one statement: of two launches racing with the same state, one
 * gets it and the other finds nothing. Returns it even when expired (the caller says so).
 */
export async function consumeLogin(db: Db, state: string): Promise<typeof ltiLogins.$inferSelect | null> {
  const [row] = await db.delete(ltiLogins).where(eq(ltiLogins.state, state)).returning();
  return row ?? null;
}

export type LtiLinkRow = typeof ltiLinks.$inferSelect;
export type LtiLearnerRow = typeof ltiLearners.$inferSelect;

/**
 * Binds a collection to its place in a course (deep linking makes the row; a launch through the link
 * fills in what it carries). An upsert: the fields given replace the stored ones, the others stay, so a
 * launch that lacks a claim (no NRPS) does not erase what an earlier one taught.
 */
export async function bindLtiLink(
  db: Db,
  link: Pick<LtiLinkRow, "collectionId" | "tenant" | "platformId" | "deploymentId"> &
    Partial<Omit<LtiLinkRow, "collectionId" | "tenant" | "platformId" | "deploymentId" | "createdAt" | "updatedAt">>,
  now: number,
): Promise<void> {
  const { collectionId, tenant, platformId, deploymentId, ...rest } = link;
  const known = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
  await db
    .insert(ltiLinks)
    .values({ collectionId, tenant, platformId, deploymentId, ...known, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({ target: ltiLinks.collectionId, set: { ...known, updatedAt: now } });
}

/**
 * Binds a learner (the platform's `sub`) to a linked collection, and to their answer once they give one.
 * An upsert: a later launch updates the name; an answer id given replaces the one stored.
 */
export async function bindLtiLearner(
  db: Db,
  learner: { collectionId: string; sub: string; platformId: string; name?: string | null; answerId?: string | null },
  now: number,
): Promise<void> {
  const set = Object.fromEntries(Object.entries({ name: learner.name, answerId: learner.answerId }).filter(([, v]) => v !== undefined));
  await db
    .insert(ltiLearners)
    .values({ ...learner, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({ target: [ltiLearners.collectionId, ltiLearners.sub], set: { ...set, updatedAt: now } });
}

/** The course place of a collection, if LTI put it in one. */
export async function ltiLinkOf(db: Db, collectionId: string): Promise<LtiLinkRow | null> {
  return (await db.query.ltiLinks.findFirst({ where: eq(ltiLinks.collectionId, collectionId) })) ?? null;
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
