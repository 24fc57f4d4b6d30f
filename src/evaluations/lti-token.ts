import {
  type AccessToken,
  assertionClaims,
  printable,
  type TokenFailure,
  TokenCache,
  tokenCacheKey,
  tokenRequestBody,
  readTokenResponse,
} from "../lti/access-token";
import { parseToolKeys, signAsTool, signingKey } from "../lti/tool-keys";
import { readConfig } from "../platform/config";
import { webhookUrlProblem } from "../webhooks/url";

/**
 * The shell of the tool's access tokens (src/lti/access-token.ts has the rules): a client assertion
 * signed by jose with the tool's current key, posted to the platform's token URL. Tokens live in this
 * isolate's memory only, each until a minute before it expires: never in D1 or an object's storage,
 * never in a response or a log line (a refusal is logged by the platform's words and status alone).
 */
const tokens = new TokenCache();

export interface TokenPlatform {
  accessTokenUrl: string;
  clientId: string;
}

export function accessToken(env: Env, platform: TokenPlatform, scopes: readonly string[]): Promise<AccessToken | TokenFailure> {
  const key = tokenCacheKey({ tokenUrl: platform.accessTokenUrl, clientId: platform.clientId }, scopes);
  return tokens.get(key, Date.now(), () => requestToken(env, platform, scopes));
}

/** A service call was answered 401: the token is dropped, and the next call asks the platform again. */
export function dropAccessToken(platform: TokenPlatform, scopes: readonly string[]): void {
  tokens.drop(tokenCacheKey({ tokenUrl: platform.accessTokenUrl, clientId: platform.clientId }, scopes));
}

async function requestToken(env: Env, platform: TokenPlatform, scopes: readonly string[]): Promise<AccessToken | TokenFailure> {
  const config = readConfig(env);
  const refused = webhookUrlProblem(platform.accessTokenUrl, config.allowInsecureWebhooks);
  if (refused) return { error: `the platform's access token URL ${refused}`, retry: false };
  const parsed = parseToolKeys(env.LTI_PRIVATE_KEYS);
  const now = Date.now();
  const key = "keys" in parsed ? signingKey(parsed.keys, now) : null;
  // the operator's to fix (their log says what): retried, so the scores go once the keys are set
  if (key === null) return { error: "the tool's keys (LTI_PRIVATE_KEYS) are not set or have all expired", retry: true };
  const claims = assertionClaims({ clientId: platform.clientId, tokenUrl: platform.accessTokenUrl, now, jti: crypto.randomUUID() });
  const assertion = await signAsTool(claims, key);
  let response: Response;
  try {
    response = await fetch(platform.accessTokenUrl, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: tokenRequestBody(assertion, scopes),
      redirect: "manual",
      signal: AbortSignal.timeout(config.webhookTimeoutMs),
    });
  } catch (err) {
    return { error: `could not reach the platform's access token URL: ${printable((err as Error).message)}`, retry: true };
  }
  const body = await response.json().catch(() => null);
  return readTokenResponse(response.status, body, Date.now());
}
