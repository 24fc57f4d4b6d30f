import { platformWords, printable, SCOPE } from "../lti/access-token";
import { learnersOfPage, MAX_ROSTER_PAGES, type Member, MEMBERSHIPS_MEDIA_TYPE, nextPageUrl } from "../lti/memberships";
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
