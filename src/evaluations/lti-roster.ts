import { platformWords, printable, SCOPE } from "../lti/access-token";
import { database } from "../db/database";
import { platformById } from "../db/lti";
import { type LtiLinkRow, ltiLearnersWithAnswers } from "../db/lti-links";
import {
  learnersOfPage,
  MAX_ROSTER_PAGES,
  type Member,
  MEMBERSHIPS_MEDIA_TYPE,
  nextPageUrl,
  type RosterEntry,
  rosterOf,
} from "../lti/memberships";
import { readConfig } from "../platform/config";
import { webhookUrlProblem } from "../webhooks/url";
import { accessToken, dropAccessToken, type TokenPlatform } from "./lti-token";

/**
 * The course's active learners from the platform's Names and Role Provisioning service, every page of
 * it (Link rel="next"), or why they could not be read, in words for the instructor. Read when asked,
 * never stored: the roster is the platform's.
 */
export async function courseLearners(env: Env, platform: TokenPlatform, membershipsUrl: string): Promise<Member[] | { error: string }> {
  const config = readConfig(env);
  const scopes = [SCOPE.memberships];
  const members: Member[] = [];
  let url: string | null = membershipsUrl;
  for (let page = 0; url !== null; page++) {
    if (page === MAX_ROSTER_PAGES) return { error: `the platform's roster has more than ${MAX_ROSTER_PAGES} pages` };
    // the URL came in a launch (or a page's Link): held to the webhooks' host rules before it is called
    const refused = webhookUrlProblem(url, config.allowInsecureWebhooks);
    if (refused) return { error: `the roster URL ${refused}` };
    const token = await accessToken(env, platform, scopes);
    if ("error" in token) return { error: token.error };
    let response: Response;
    try {
      response = await fetch(url, {
        headers: { authorization: `Bearer ${token.token}`, accept: MEMBERSHIPS_MEDIA_TYPE },
        redirect: "manual",
        signal: AbortSignal.timeout(config.webhookTimeoutMs),
      });
    } catch (err) {
      return { error: `could not reach the platform's roster: ${printable((err as Error).message)}` };
    }
    if (response.status === 401) dropAccessToken(platform, scopes);
    if (response.status !== 200) {
      const words = platformWords(await response.text().catch(() => ""), token.token);
      return { error: `the platform's roster answered ${response.status}${words ? `: ${words}` : ""}` };
    }
    members.push(...learnersOfPage(await response.json().catch(() => null)));
    url = nextPageUrl(response.headers.get("link"), url);
  }
  return members;
}

/** Why a course's roster is not given: its launches offered none, its platform is gone, or the platform failed. */
export type RosterRefusal = { refusal: "no-roster" | "no-platform" | "failed"; error: string };

/**
 * The course's learners, each with whether they answered this linked collection (their launches bound
 * an answer to them), in the platform's order; or why not, in words.
 */
export async function courseRoster(env: Env, link: LtiLinkRow | null): Promise<RosterEntry[] | RosterRefusal> {
  if (!link?.membershipsUrl)
    return {
      refusal: "no-roster",
      error: "this collection's course did not offer its roster (no LTI Names and Role Provisioning service in its launches)",
    };
  const db = database(env.DB);
  const platform = await platformById(db, link.platformId);
  if (!platform) return { refusal: "no-platform", error: "the LTI platform of this collection's course is no longer registered" };
  const members = await courseLearners(env, platform, link.membershipsUrl);
  if ("error" in members) return { refusal: "failed", error: members.error };
  const answers = new Map((await ltiLearnersWithAnswers(db, link.collectionId)).map((l) => [l.sub, l.answerId as string]));
  return rosterOf(members, answers);
}
