// Test set-up: a collection bound to a course and learners to their answers in D1, as launches bind
// them (src/db/lti-links.ts), for the tests of what works from those bindings (passback, roster).
import type { Db } from "../../src/db/database";
import { ltiLearners, ltiLinks } from "../../src/db/schema";

type LtiLinkRow = typeof ltiLinks.$inferSelect;

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
