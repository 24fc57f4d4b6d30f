import { database } from "../db/database";
import { platformById } from "../db/lti";
import { platformWords, printable } from "../lti/access-token";
import { retryAfterMs, SCORE_MEDIA_TYPE } from "../lti/scores";
import type { readConfig } from "../platform/config";
import { webhookUrlProblem } from "../webhooks/url";
import { accessToken, dropAccessToken } from "./lti-token";

/** What one post of a score came to. `final` when making it again cannot succeed. */
export interface PostOutcome {
  /** The platform's status; null when none came (not sent, no token, a network error). */
  status: number | null;
  /** Words for the delivery log when it is not a success: ours, or the platform's (never the token). */
  error?: string;
  retryAfterMs: number | null;
  final?: "failed";
}

/**
 * One post of a queued score to its line item's score URL (the queue, durable-objects/lti-scores.ts,
 * decides what follows): the platform registration read afresh (a PATCH applies at once), the URL held
 * to the webhooks' host rules (it came in a launch), a token of the scopes asked, then the POST.
 */
export async function postScore(
  env: Env,
  score: { platformId: string; url: string; scopes: string[]; body: string },
  config: ReturnType<typeof readConfig>,
): Promise<PostOutcome> {
  const platform = await platformById(database(env.DB), score.platformId);
  if (!platform) return { status: null, error: "the LTI platform's registration was removed", retryAfterMs: null, final: "failed" };
  const refused = webhookUrlProblem(score.url, config.allowInsecureWebhooks);
  if (refused) return { status: null, error: `not sent: the line item URL ${refused}`, retryAfterMs: null, final: "failed" };
  const token = await accessToken(env, platform, score.scopes);
  if ("error" in token)
    return { status: null, error: token.error, retryAfterMs: null, ...(token.retry ? {} : { final: "failed" as const }) };
  let response: Response;
  try {
    response = await fetch(score.url, {
      method: "POST",
      headers: { authorization: `Bearer ${token.token}`, "content-type": SCORE_MEDIA_TYPE, "user-agent": "knockout-judge-lti/1" },
      body: score.body,
      redirect: "manual",
      signal: AbortSignal.timeout(config.webhookTimeoutMs),
    });
  } catch (err) {
    const timedOut = err instanceof Error && err.name === "TimeoutError";
    return {
      status: null,
      error: timedOut ? `no answer within ${config.webhookTimeoutMs} ms` : `could not connect: ${printable((err as Error).message)}`,
      retryAfterMs: null,
    };
  }
  // the platform no longer takes the token (revoked, its clock ahead): the retry asks a new one
  if (response.status === 401) dropAccessToken(platform, score.scopes);
  const ok = response.status >= 200 && response.status < 300;
  const words = ok ? "" : platformWords(await response.text().catch(() => ""), token.token);
  if (ok) await response.body?.cancel();
  return {
    status: response.status,
    ...(ok ? {} : { error: `answered ${response.status}${words ? `: ${words}` : ""}` }),
    retryAfterMs: retryAfterMs(response.headers.get("retry-after"), Date.now()),
  };
}
