import { database } from "../db/database";
import { platformById } from "../db/lti";
import { linkOf, ltiLearnersWithAnswers } from "../db/lti-links";
import type { CourseState } from "../lti/course-pages";
import { rosterOf } from "../lti/memberships";
import { passbackState } from "../lti/scores";
import { ltiScoresStub } from "../platform/stubs";
import { courseLearners } from "./lti-roster";

/**
 * Read when the instructor launches: the roster live from the platform (never stored), the passback
 * counts from the collection's score queue. A platform that fails to give the roster is said in words;
 * the page still opens.
 */
export async function courseState(env: Env, collectionId: string): Promise<CourseState> {
  const db = database(env.DB);
  const link = await linkOf(db, collectionId);
  const learners = link ? await ltiLearnersWithAnswers(db, collectionId) : [];
  const passback = passbackState(link);
  const gradebook = { queued: 0, posted: 0, failed: 0 };
  if (learners.length > 0)
    for (const log of await ltiScoresStub(env, collectionId).deliveries()) {
      const state = log.versions.at(-1)?.state;
      if (state === "queued" || state === "posted" || state === "failed") gradebook[state]++;
    }
  if (!link?.membershipsUrl) return { notAnswered: null, rosterError: null, passback, gradebook };
  const platform = await platformById(db, link.platformId);
  const members = platform ? await courseLearners(env, platform, link.membershipsUrl) : { error: "the platform is no longer registered" };
  if ("error" in members) return { notAnswered: null, rosterError: members.error, passback, gradebook };
  const answers = new Map(learners.map((l) => [l.sub, l.answerId as string]));
  return { notAnswered: rosterOf(members, answers).filter((e) => !e.answered), rosterError: null, passback, gradebook };
}
