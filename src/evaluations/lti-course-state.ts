import { database } from "../db/database";
import { type LtiLinkRow, linkOf, ltiLearnersWithAnswers } from "../db/lti-links";
import type { CourseState } from "../lti/course-pages";
import { passbackState } from "../lti/scores";
import { readConfig } from "../platform/config";
import { ltiScoresStub } from "../platform/stubs";
import { courseRoster } from "./lti-roster";

/**
 * Each learner of a linked collection who answered, with the versions of their score sent to the
 * gradebook and the latest one's state (`not-sent` while nothing was), and how many stand in each state.
 */
export async function scoreLog(env: Env, collectionId: string, link: LtiLinkRow | null) {
  const learners = link ? await ltiLearnersWithAnswers(database(env.DB), collectionId) : [];
  const logs = learners.length > 0 ? await ltiScoresStub(env, collectionId).deliveries() : [];
  const logOf = new Map(logs.map((l) => [l.sub, l]));
  const data = learners.map((l) => {
    const versions = logOf.get(l.sub)?.versions ?? [];
    return {
      userId: l.sub,
      name: l.name,
      answerId: l.answerId as string,
      state: versions.at(-1)?.state ?? ("not-sent" as const),
      versions,
    };
  });
  const count = (state: string) => data.filter((d) => d.state === state).length;
  return { data, counts: { queued: count("queued"), posted: count("posted"), failed: count("failed") } };
}

/**
 * Read when the instructor launches: the roster live from the platform (never stored), the passback
 * counts from the collection's score queue. A platform that fails to give the roster, or is slower
 * than LTI_ROSTER_WAIT_MS at it (a roster of many pages, a busy LMS), is said in words; the page still
 * opens, without waiting on the platform's every page at its full timeout.
 */
export async function courseState(env: Env, collectionId: string): Promise<CourseState> {
  const link = await linkOf(database(env.DB), collectionId);
  const passback = passbackState(link);
  const { counts: gradebook } = await scoreLog(env, collectionId, link);
  if (!link?.membershipsUrl) return { notAnswered: null, rosterError: null, passback, gradebook };
  const waitMs = readConfig(env).ltiRosterWaitMs;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<{ refusal: "late"; error: string }>((resolve) => {
    timer = setTimeout(
      () =>
        resolve({
          refusal: "late",
          error: `the platform did not give it within ${waitMs / 1000} s; the roster API reads it whenever asked`,
        }),
      waitMs,
    );
  });
  const roster = await Promise.race([courseRoster(env, link), late]).finally(() => clearTimeout(timer));
  if ("refusal" in roster) return { notAnswered: null, rosterError: roster.error, passback, gradebook };
  return { notAnswered: roster.filter((e) => !e.answered), rosterError: null, passback, gradebook };
}
