import type http from "node:http";
import { createLocalJWKSet, type JSONWebKeySet, jwtVerify } from "jose";

/**
 * The LTI Advantage services of the test platform (test/support/lti-platform.ts dispatches here), each
 * tag a platform of its own, as there:
 * - `POST /<tag>/tool-jwks`: the tool's public keys, as the platform's admin registers them (the test
 *   copies the service's /lti/jwks here: workerd's address is not reachable from Node).
 * - `POST /<tag>/token`: the OAuth 2 token endpoint. Verifies the client assertion's RS256 signature
 *   against those keys, its iss and sub (`client-<tag>`), aud (this URL), exp and a jti used once;
 *   issues a bearer token for the scopes asked, good for `tokenExpiresIn` seconds.
 * - `POST /<tag>/lineitems/<id>/scores`: the AGS score endpoint. Checks the bearer token (scope score)
 *   and the content type; records every score received with what it answered. Faults set by
 *   `/<tag>/services-setup` are answered first, in order (a 503, a 429 with Retry-After, a 4xx).
 * - `GET /<tag>/memberships`: the NRPS membership container, `pageSize` members a page, Link rel=next.
 * - `POST /<tag>/services-setup`: `{ faults?, roster?, pageSize?, tokenExpiresIn?, rosterDelayMs? }`.
 * - `GET /<tag>/services`: what it received: `{ tokenRequests, tokens, scores, membershipReads }`.
 */
export interface ScoreFault {
  status: number;
  /** Seconds, sent as Retry-After. */
  retryAfter?: number;
  body?: string;
  /** The body echoes the request's Authorization header, as a careless platform's error page might. */
  echo?: boolean;
  /** Only a score for this user meets the fault (default: the next score, whoever's). */
  userId?: string;
}

export interface ReceivedScore {
  path: string;
  query: string;
  contentType: string;
  authorization: string;
  body: Record<string, unknown>;
  answered: number;
}

interface Services {
  toolKeys: JSONWebKeySet | null;
  tokens: Map<string, { scopes: string[]; expiresAt: number }>;
  jtis: Set<string>;
  tokenRequests: { scope: string; answered: number }[];
  tokenExpiresIn: number;
  scores: ReceivedScore[];
  faults: ScoreFault[];
  roster: Record<string, unknown>[];
  pageSize: number;
  membershipReads: number;
  /** How long each roster page takes to come, as a busy LMS's would. */
  rosterDelayMs: number;
}

const byTag = new Map<string, Services>();

function servicesOf(tag: string): Services {
  let s = byTag.get(tag);
  if (!s) {
    s = {
      toolKeys: null,
      tokens: new Map(),
      jtis: new Set(),
      tokenRequests: [],
      tokenExpiresIn: 3600,
      scores: [],
      faults: [],
      roster: [],
      pageSize: 2,
      membershipReads: 0,
      rosterDelayMs: 0,
    };
    byTag.set(tag, s);
  }
  return s;
}

export const SCORE_SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/score";
export const LINEITEM_SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem";
export const MEMBERSHIPS_SCOPE = "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly";
const GRANTABLE = [SCORE_SCOPE, LINEITEM_SCOPE, MEMBERSHIPS_SCOPE];

/** Answers the request if it is one of the services'; false when it is not (the platform answers it). */
/** The tool's key set the platform's admin registered for `tag`, if any. */
export function toolKeySetOf(tag: string): JSONWebKeySet | null {
  return servicesOf(tag).toolKeys;
}

export async function ltiServices(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  tag: string,
  action: string,
  url: URL,
): Promise<boolean> {
  const s = servicesOf(tag);
  if (req.method === "POST" && action === "tool-jwks") {
    s.toolKeys = JSON.parse(await bodyOf(req));
    return json(res, 200, { ok: true });
  }
  if (req.method === "POST" && action === "services-setup") {
    const setup = JSON.parse(await bodyOf(req)) as Partial<
      Pick<Services, "faults" | "roster" | "pageSize" | "tokenExpiresIn" | "rosterDelayMs">
    >;
    Object.assign(s, setup);
    return json(res, 200, { ok: true });
  }
  if (req.method === "GET" && action === "services")
    return json(res, 200, {
      tokenRequests: s.tokenRequests,
      tokens: [...s.tokens.keys()],
      scores: s.scores,
      membershipReads: s.membershipReads,
    });
  if (req.method === "POST" && action === "token") return token(req, res, tag, s, url);
  if (req.method === "POST" && action === "lineitems" && url.pathname.endsWith("/scores")) return score(req, res, s, url);
  if (req.method === "GET" && action === "memberships") return memberships(req, res, s, url);
  return false;
}

async function token(req: http.IncomingMessage, res: http.ServerResponse, tag: string, s: Services, url: URL): Promise<boolean> {
  const form = new URLSearchParams(await bodyOf(req));
  const refuse = (status: number, error: string, description: string) => {
    s.tokenRequests.push({ scope: form.get("scope") ?? "", answered: status });
    return json(res, status, { error, error_description: description });
  };
  if (form.get("grant_type") !== "client_credentials") return refuse(400, "unsupported_grant_type", "client_credentials only");
  if (form.get("client_assertion_type") !== "urn:ietf:params:oauth:client-assertion-type:jwt-bearer")
    return refuse(400, "invalid_request", "a JWT bearer client assertion is required");
  if (!s.toolKeys) return refuse(401, "invalid_client", "no tool keys registered with this platform");
  let claims: Record<string, unknown>;
  try {
    const tokenUrl = `http://${req.headers.host}${url.pathname}`;
    ({ payload: claims } = await jwtVerify(form.get("client_assertion") ?? "", createLocalJWKSet(s.toolKeys), {
      algorithms: ["RS256"],
      issuer: `client-${tag}`,
      subject: `client-${tag}`,
      audience: tokenUrl,
      requiredClaims: ["exp", "iat", "jti"],
    }));
  } catch (err) {
    return refuse(401, "invalid_client", `the client assertion is not valid: ${(err as Error).message}`);
  }
  if (s.jtis.has(claims.jti as string)) return refuse(401, "invalid_client", "the client assertion's jti was used before");
  s.jtis.add(claims.jti as string);
  const scopes = (form.get("scope") ?? "").split(" ").filter(Boolean);
  if (scopes.length === 0 || scopes.some((x) => !GRANTABLE.includes(x))) return refuse(400, "invalid_scope", "unknown scope");
  const accessToken = `tok-${crypto.randomUUID()}`;
  s.tokens.set(accessToken, { scopes, expiresAt: Date.now() + s.tokenExpiresIn * 1000 });
  s.tokenRequests.push({ scope: scopes.join(" "), answered: 200 });
  return json(res, 200, { access_token: accessToken, token_type: "Bearer", expires_in: s.tokenExpiresIn, scope: scopes.join(" ") });
}

/** The scopes of a valid bearer token, or null. */
function bearerScopes(req: http.IncomingMessage, s: Services): string[] | null {
  const m = (req.headers.authorization ?? "").match(/^Bearer (\S+)$/);
  const t = m ? s.tokens.get(m[1]) : undefined;
  return t && t.expiresAt > Date.now() ? t.scopes : null;
}

async function score(req: http.IncomingMessage, res: http.ServerResponse, s: Services, url: URL): Promise<boolean> {
  const text = await bodyOf(req);
  const body = JSON.parse(text || "{}") as Record<string, unknown>;
  const record = (answered: number) =>
    s.scores.push({
      path: url.pathname,
      query: url.search,
      contentType: req.headers["content-type"] ?? "",
      authorization: req.headers.authorization ?? "",
      body,
      answered,
    });
  if (!bearerScopes(req, s)?.includes(SCORE_SCOPE)) {
    record(401);
    return json(res, 401, { error: "a bearer token with the score scope is required" });
  }
  if (req.headers["content-type"] !== "application/vnd.ims.lis.v1.score+json") {
    record(415);
    return json(res, 415, { error: "the content type must be application/vnd.ims.lis.v1.score+json" });
  }
  const i = s.faults.findIndex((f) => f.userId === undefined || f.userId === body.userId);
  if (i >= 0) {
    const [fault] = s.faults.splice(i, 1);
    record(fault.status);
    res.writeHead(fault.status, {
      "content-type": "text/plain",
      ...(fault.retryAfter !== undefined ? { "retry-after": String(fault.retryAfter) } : {}),
    });
    res.end(fault.echo ? `refused: ${req.headers.authorization}` : (fault.body ?? ""));
    return true;
  }
  record(200);
  return json(res, 200, {});
}

async function memberships(req: http.IncomingMessage, res: http.ServerResponse, s: Services, url: URL): Promise<boolean> {
  if (!bearerScopes(req, s)?.includes(MEMBERSHIPS_SCOPE))
    return json(res, 401, { error: "a bearer token with the memberships scope is required" });
  s.membershipReads++;
  if (s.rosterDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, s.rosterDelayMs));
  const page = Number(url.searchParams.get("page") ?? "1");
  const members = s.roster.slice((page - 1) * s.pageSize, page * s.pageSize);
  const headers: Record<string, string> = { "content-type": "application/vnd.ims.lti-nrps.v2.membershipcontainer+json" };
  if (page * s.pageSize < s.roster.length) {
    const next = new URL(url.href);
    next.searchParams.set("page", String(page + 1));
    headers.link = `<${next.pathname}${next.search}>; rel="next"`;
  }
  res.writeHead(200, headers);
  res.end(JSON.stringify({ id: url.href, context: { id: "course-1", title: "Data Structures" }, members }));
  return true;
}

function bodyOf(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (chunk) => {
      text += chunk;
    });
    req.on("end", () => resolve(text));
    req.on("error", reject);
  });
}

function json(res: http.ServerResponse, status: number, body: unknown): true {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
  return true;
}
