import http from "node:http";
import type { AddressInfo } from "node:net";
import { createLocalJWKSet, exportJWK, generateKeyPair, type JWK, jwtVerify, SignJWT } from "jose";

/**
 * A real LTI 1.3 platform (an LMS) on 127.0.0.1 for the workerd tests, with its own RS256 keys made by
 * jose in Node. Each test names its own platform by a tag in the path, so tests running at once share
 * nothing: `/<tag>/...`, issuer `https://lms-<tag>.example`.
 * - `GET /<tag>/jwks`: the tag's published public keys; each fetch is counted.
 * - `GET /<tag>/stats`: `{ jwksFetches }`.
 * - `POST /<tag>/rotate`: a new key, published beside the old ones and signing from now on.
 * - Deep linking (see `deepLinkingAction`): `POST /<tag>/tool-jwks` (the tool's key set, as an admin
 *   configures it), `POST /<tag>/deep-link-return` (the return URL: checks the tool's response JWT) and
 *   `GET /<tag>/deep-links` (what came back).
 * - `GET /<tag>/authorize?...`: the OIDC authorization endpoint. It answers the tool's redirect as an
 *   LMS does, with a page that posts `id_token` and `state` to the `redirect_uri`, the token signed for
 *   the request's `client_id` and `nonce`. The `lti_message_hint` (base64url JSON, see `LaunchHint`)
 *   bends the token, so a test can ask for an expired, forged or wrong-audience one.
 */
export interface LaunchHint {
  /** Claims set over the defaults; a null removes the claim. */
  claims?: Record<string, unknown>;
  /** The kid the header names (default: the signing key's). */
  kid?: string;
  /** Signed by a key the platform never published, under its published kid. */
  forge?: boolean;
  /** Seconds from now the token expires (negative: already expired); default 300. */
  expiresIn?: number;
}

export const DEFAULT_DEPLOYMENT = "dep-1";
export const issuerOf = (tag: string) => `https://lms-${tag}.example`;

interface PlatformKeys {
  signing: { kid: string; privateKey: CryptoKey };
  published: JWK[];
  jwksFetches: number;
}

async function newKey(): Promise<{ kid: string; privateKey: CryptoKey; jwk: JWK }> {
  const { privateKey, publicKey } = await generateKeyPair("RS256", { extractable: true });
  const kid = `k-${crypto.randomUUID().slice(0, 8)}`;
  return { kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: "RS256", use: "sig" } };
}

export async function startLtiPlatform(): Promise<{ port: number; close(): Promise<void> }> {
  const platforms = new Map<string, Promise<PlatformKeys>>();
  const platformOf = (tag: string) => {
    let p = platforms.get(tag);
    if (!p) {
      p = newKey().then(({ kid, privateKey, jwk }) => ({ signing: { kid, privateKey }, published: [jwk], jwksFetches: 0 }));
      platforms.set(tag, p);
    }
    return p;
  };

  async function answer(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const [, tag, action] = url.pathname.split("/");
    if (!tag || !action) return send(res, 404, "text/plain", "no such path");
    if (await (await import("./lti-services")).ltiServices(req, res, tag, action, url)) return; // AGS, NRPS, token: ./lti-services.ts
    const platform = await platformOf(tag);
    if (req.method === "GET" && action === "jwks") {
      platform.jwksFetches++;
      return send(res, 200, "application/json", JSON.stringify({ keys: platform.published }));
    }
    if (req.method === "GET" && action === "stats")
      return send(res, 200, "application/json", JSON.stringify({ jwksFetches: platform.jwksFetches }));
    if (req.method === "POST" && action === "rotate") {
      const key = await newKey();
      platform.published.push(key.jwk);
      platform.signing = { kid: key.kid, privateKey: key.privateKey };
      return send(res, 200, "application/json", JSON.stringify({ kid: key.kid }));
    }
    const deepLinking = await deepLinkingAction(req, action, tag);
    if (deepLinking) return send(res, deepLinking.status, "application/json", JSON.stringify(deepLinking.body));
    if (req.method === "GET" && action === "authorize") {
      const q = url.searchParams;
      const hint: LaunchHint = q.get("lti_message_hint")
        ? JSON.parse(Buffer.from(q.get("lti_message_hint") ?? "", "base64url").toString())
        : {};
      const idToken = await idTokenFor(tag, platform, q, hint);
      const form = `<form method="post" action="${q.get("redirect_uri")}"><input type="hidden" name="id_token" value="${idToken}"><input type="hidden" name="state" value="${q.get("state")}"></form><script>document.forms[0].submit()</script>`;
      return send(res, 200, "text/html", form);
    }
    return send(res, 404, "text/plain", "no such path");
  }

  const server = http.createServer((req, res) => {
    answer(req, res).catch((err) => send(res, 500, "text/plain", String(err)));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function idTokenFor(tag: string, platform: PlatformKeys, q: URLSearchParams, hint: LaunchHint): Promise<string> {
  const defaults: Record<string, unknown> = {
    nonce: q.get("nonce"),
    sub: q.get("login_hint"),
    name: "Ada Lovelace",
    "https://purl.imsglobal.org/spec/lti/claim/message_type": "LtiResourceLinkRequest",
    "https://purl.imsglobal.org/spec/lti/claim/version": "1.3.0",
    "https://purl.imsglobal.org/spec/lti/claim/deployment_id": DEFAULT_DEPLOYMENT,
    "https://purl.imsglobal.org/spec/lti/claim/target_link_uri": q.get("redirect_uri"),
    "https://purl.imsglobal.org/spec/lti/claim/resource_link": { id: "rl-1", title: "Week 3: stacks" },
    "https://purl.imsglobal.org/spec/lti/claim/context": { id: "course-1", title: "Data Structures" },
    "https://purl.imsglobal.org/spec/lti/claim/roles": ["http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"],
  };
  const claims = Object.fromEntries(Object.entries({ ...defaults, ...hint.claims }).filter(([, v]) => v !== null));
  const now = Math.floor(Date.now() / 1000);
  const key = hint.forge ? (await newKey()).privateKey : platform.signing.privateKey;
  return new SignJWT(claims)
    .setProtectedHeader({ alg: "RS256", typ: "JWT", kid: hint.kid ?? platform.signing.kid })
    .setIssuer((claims.iss as string | undefined) ?? issuerOf(tag))
    .setAudience((claims.aud as string | string[] | undefined) ?? (q.get("client_id") as string))
    .setIssuedAt(now)
    .setExpirationTime(now + (hint.expiresIn ?? 300))
    .sign(key);
}

function send(res: http.ServerResponse, status: number, type: string, body: string) {
  res.writeHead(status, { "content-type": type });
  res.end(body);
}

/** A tool key set for the service under test (LTI_PRIVATE_KEYS): the current key, and one retired in its grace period. */
export async function toolKeys(): Promise<{ json: string; current: JWK; retiring: JWK }> {
  const make = async (kid: string) => {
    const { privateKey } = await generateKeyPair("RS256", { extractable: true });
    return { ...(await exportJWK(privateKey)), kid, alg: "RS256" };
  };
  const current = await make(`tool-${crypto.randomUUID().slice(0, 8)}`);
  const retiring = {
    ...(await make(`tool-old-${crypto.randomUUID().slice(0, 8)}`)),
    notAfter: new Date(Date.now() + 86_400_000).toISOString(),
  };
  const expired = { ...(await make("tool-expired")), notAfter: "2020-01-01T00:00:00Z" };
  return { json: JSON.stringify([current, retiring, expired]), current, retiring };
}

/**
 * The deep linking side of the test platform, apart from the launch's: the tool's JWKS as the admin
 * registers it (the test posts what the tool serves at /lti/jwks: workerd is not reachable from here),
 * the return URL a browser posts the tool's `JWT` to, checked as an LMS checks it (RS256 against that
 * key set by `kid`, iss = the tool's client id, aud = this platform's issuer, the message type, version,
 * deployment, a nonce), and the list of what came back, for the test to read.
 */
const deepLinksBack = new Map<string, unknown[]>();

async function deepLinkingAction(
  req: http.IncomingMessage,
  action: string,
  tag: string,
): Promise<{ status: number; body: unknown } | null> {
  if (req.method === "GET" && action === "deep-links") return { status: 200, body: deepLinksBack.get(tag) ?? [] };
  if (req.method !== "POST" || action !== "deep-link-return") return null;
  const jwt = new URLSearchParams(await bodyOf(req)).get("JWT") ?? "";
  // the key set the admin registered (POST /<tag>/tool-jwks, kept by ./lti-services.ts for its token endpoint too)
  const keys = (await import("./lti-services")).toolKeySetOf(tag);
  if (!keys) return { status: 400, body: { error: "no tool key set registered" } };
  try {
    const { payload, protectedHeader } = await jwtVerify(jwt, createLocalJWKSet(keys), {
      algorithms: ["RS256"],
      issuer: `client-${tag}`,
      audience: issuerOf(tag),
      maxTokenAge: 300,
    });
    const claim = (name: string) => payload[`https://purl.imsglobal.org/spec/lti${name}`];
    const problems = [
      claim("/claim/message_type") !== "LtiDeepLinkingResponse" && "message_type",
      claim("/claim/version") !== "1.3.0" && "version",
      claim("/claim/deployment_id") !== DEFAULT_DEPLOYMENT && "deployment_id",
      (typeof payload.nonce !== "string" || payload.nonce === "") && "nonce",
      !Array.isArray(claim("-dl/claim/content_items")) && "content_items",
    ].filter(Boolean);
    if (problems.length) return { status: 400, body: { error: `wrong claims: ${problems.join(", ")}` } };
    const back = { kid: protectedHeader.kid, items: claim("-dl/claim/content_items"), data: claim("-dl/claim/data") ?? null };
    deepLinksBack.set(tag, [...(deepLinksBack.get(tag) ?? []), back]);
    return { status: 200, body: back };
  } catch (err) {
    return { status: 400, body: { error: `refused: ${(err as Error).name}` } };
  }
}

function bodyOf(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    req.on("data", (chunk) => {
      text += chunk;
    });
    req.on("end", () => resolve(text));
    req.on("error", reject);
  });
}
