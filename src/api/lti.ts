import { networkOf } from "../limits/network";
import type { Context } from "hono";
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { getCookie } from "hono/cookie";
import { ltiJwks } from "../contract";
import { database } from "../db/database";
import { consumeLogin, insertLogin, platformById, platformsByIssuer } from "../db/lti";
import { claimsRefusal } from "../lti/claims";
import { authorizationUrl, isOwnTarget, LOGIN_TTL_MS, loginAgainUrl, loginRequestOf, stateCookie, stateCookieName } from "../lti/login";
import { LAUNCH_REFUSALS } from "../lti/refusals";
import { landing } from "./lti-landing";
import { isRefusal, randomToken, refused } from "./lti-response";
import { parseToolKeys, publicKeySet } from "../lti/tool-keys";
import { readConfig } from "../platform/config";
import { problemResponse } from "../platform/problems";
import type { App } from "./context";
import { selfOrigin } from "./public-origin";
import { overLimit } from "./rate-limit";
import { route } from "./route";
import { verifyIdToken } from "./lti-verify";

/**
 * The LTI 1.3 endpoints a platform calls (no API key: the platform's signature is the credential):
 * the OIDC login, the launch, and the tool's public keys. Thin: the rules are src/lti's.
 */
export const ltiTool = new Hono<App>();

/**
 * What an LMS posts here is a login's parameters or an id_token and a state: a few kilobytes, tens with
 * many custom claims. Anything larger is refused before it is read (these routes take no key).
 */
const MAX_LTI_BODY_BYTES = 64 * 1024;
const ltiBodyLimit = bodyLimit({
  maxSize: MAX_LTI_BODY_BYTES,
  onError: () => problemResponse(413, `an LTI request body is at most ${MAX_LTI_BODY_BYTES} bytes`),
});
// on this router's own paths: the course pages' forms (./lti-course.ts), mounted at the same prefix, take longer texts
for (const path of ["/login", "/launch"]) ltiTool.use(path, ltiBodyLimit);

async function paramsOf(c: Context<App>): Promise<Record<string, string | undefined>> {
  const query = c.req.query();
  if (c.req.method !== "POST") return query;
  const form = await c.req.parseBody().catch(() => ({}));
  const fields = Object.fromEntries(Object.entries(form).filter(([, v]) => typeof v === "string")) as Record<string, string>;
  return { ...query, ...fields };
}

/**
 * The third-party initiated login: find the platform by issuer (and client id, which every LMS sends
 * today; without it, an issuer registered once), note a fresh state and nonce, bind the state to this
 * browser by a cookie, and send the browser to the platform's authorization endpoint.
 */
async function login(c: Context<App>): Promise<Response> {
  const limited = await loginLimit(c);
  if (limited) return limited;
  const request = loginRequestOf(await paramsOf(c));
  if (isRefusal(request)) return refused(c, request);
  const origin = selfOrigin(c);
  if (!isOwnTarget(request.targetLinkUri, origin)) return refused(c, { code: "wrong-target" });
  const db = database(c.env.DB);
  const candidates = (await platformsByIssuer(db, request.iss)).filter((p) => request.clientId === null || p.clientId === request.clientId);
  if (candidates.length === 0) return refused(c, { code: "unknown-platform" });
  if (candidates.length > 1) return refused(c, { code: "ambiguous-platform" });
  const platform = candidates[0];
  if (request.deploymentId !== null && !platform.deploymentIds.includes(request.deploymentId))
    return refused(c, { code: "unknown-deployment", detail: `The LMS sent deployment id "${request.deploymentId.slice(0, 80)}".` });
  const now = Date.now();
  const state = randomToken();
  const nonce = randomToken();
  const login = {
    state,
    nonce,
    platformId: platform.id,
    loginHint: request.loginHint,
    messageHint: request.ltiMessageHint,
    targetLinkUri: request.targetLinkUri,
    expiresAt: now + LOGIN_TTL_MS,
  };
  await insertLogin(db, login, now);
  const location = authorizationUrl(platform.authLoginUrl, request, {
    clientId: platform.clientId,
    redirectUri: `${origin}/lti/launch`,
    state,
    nonce,
  });
  return new Response(null, {
    status: 302,
    headers: {
      location,
      "set-cookie": stateCookie(state, LOGIN_TTL_MS / 1000),
      "cache-control": "no-store",
      "referrer-policy": "no-referrer",
    },
  });
}

/**
 * The logins of one client address, counted by a RateLimiter object of its own: anyone can send the
 * browser here, and each login writes a row. Cloudflare always names the address; a request without
 * one (a local tool) is not counted.
 */
async function loginLimit(c: Context<App>): Promise<Response | null> {
  const address = c.req.header("cf-connecting-ip");
  if (!address) return null;
  const perMinute = readConfig(c.env).ltiLoginsPerMinute;
  const retryAfter = await overLimit(c.env, `lti-login:${networkOf(address)}`, perMinute);
  if (retryAfter === null) return null;
  return problemResponse(429, `too many LTI logins from your network (${perMinute} a minute); try again in ${retryAfter} s`, {
    headers: { "retry-after": String(retryAfter) },
  });
}

const loginDoc = {
  path: "/login" as const,
  summary: "LTI 1.3 OIDC login initiation (the LMS sends the browser here)",
  tag: "lti",
  auth: "none" as const,
  ok: { 302: { description: "to the platform's authorization endpoint, with state and nonce", mediaType: "text/html" } },
  refusals: [400, 429],
};
route(ltiTool, { ...loginDoc, method: "get" }, login);
route(ltiTool, { ...loginDoc, method: "post" }, login);

/**
 * The launch: the platform posts the id_token and the state back. The login is taken out first (one
 * use, whatever follows), its cookie must come back with it, then jose checks the token and src/lti
 * its LTI claims.
 */
route(
  ltiTool,
  {
    method: "post",
    path: "/launch",
    summary: "LTI 1.3 launch (the redirect URI: the LMS posts the id_token here)",
    tag: "lti",
    auth: "none",
    ok: { 200: { description: "the launched page", mediaType: "text/html" } },
    refusals: [400, 401, 503],
  },
  async (c) => {
    const form = await paramsOf(c);
    if (form.error) return refused(c, { code: "platform-error", detail: `It said: ${form.error.slice(0, 80)}.` });
    if (!form.id_token || !form.state)
      return refused(c, { code: "missing-parameter", detail: "Missing from the launch: id_token or state." });
    const db = database(c.env.DB);
    const login = await consumeLogin(db, form.state);
    if (!login) return refused(c, { code: "no-login" });
    if (login.expiresAt <= Date.now()) return refused(c, { code: "login-expired" });
    const platform = await platformById(db, login.platformId);
    if (!platform) return refused(c, { code: "unknown-platform" });
    // the frame's browser kept no cookie (third-party cookies blocked): the same login in a new window
    if (getCookie(c, stateCookieName(form.state)) === undefined)
      return refused(
        c,
        { code: "cookie-missing" },
        loginAgainUrl(selfOrigin(c), { ...login, iss: platform.issuer, clientId: platform.clientId }),
      );
    const verified = await verifyIdToken(form.id_token, platform, readConfig(c.env).ltiJwksCooldownMs);
    if (isRefusal(verified)) return refused(c, verified);
    const wrong = claimsRefusal(verified.claims, {
      clientId: platform.clientId,
      deploymentIds: platform.deploymentIds,
      nonce: login.nonce,
      now: Math.floor(Date.now() / 1000),
    });
    if (wrong) return refused(c, wrong);
    // where the launch lands: the deep linking form, the learner's or the instructor's page (./lti-course.ts)
    const landed = await landing(c, platform, verified.claims);
    const out = new Response(landed.body, landed);
    // the state's cookie has done its work
    out.headers.append("set-cookie", stateCookie(form.state, 0));
    return out;
  },
);

/** The tool's public keys, for the platforms to check what the tool signs (deep linking, grade passback). */
route(
  ltiTool,
  {
    method: "get",
    path: "/jwks",
    summary: "The LTI tool's public keys (JWKS)",
    tag: "lti",
    auth: "none",
    ok: { 200: { description: "the key set: public RSA keys, each with its kid", schema: ltiJwks } },
    refusals: [503],
  },
  (c) => {
    const parsed = parseToolKeys(c.env.LTI_PRIVATE_KEYS);
    if ("error" in parsed) {
      // the reason names the entry and what it lacks, never a value: fit for the operator's log
      console.error(`LTI keys: ${parsed.error}`);
      return problemResponse(503, LAUNCH_REFUSALS["not-configured"].words);
    }
    return c.json(publicKeySet(parsed.keys, Date.now()), 200, { "cache-control": "public, max-age=300" });
  },
);
