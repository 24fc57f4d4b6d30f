/**
 * The tool's access to a platform's services (LTI Advantage): an OAuth 2 client credentials grant,
 * authenticated by a JWT the tool signs (IMS Security Framework §4.1, RFC 7523). Pure: the assertion's
 * claims, the token request, reading the answer, and the cache's rule. The signing and the fetch are
 * the shell's (src/evaluations/lti-token.ts); the token is kept in memory only.
 */

/** The scopes this tool asks for: AGS line items and scores, and NRPS's read-only roster. */
export const SCOPE = {
  lineItem: "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem",
  score: "https://purl.imsglobal.org/spec/lti-ags/scope/score",
  memberships: "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly",
} as const;

/** The passback's scopes, as far as the launch said the platform grants them (null: it did not say). */
export function passbackScopes(granted: readonly string[] | null): string[] {
  const wanted = [SCOPE.lineItem, SCOPE.score];
  return granted === null ? wanted : wanted.filter((s) => granted.includes(s));
}

/** How long the signed assertion is good for: it is used at once. */
export const ASSERTION_TTL_S = 5 * 60;

/** The claims of the client assertion: the tool (its client id) speaks about itself to the token URL. */
export function assertionClaims(p: { clientId: string; tokenUrl: string; now: number; jti: string }) {
  const iat = Math.floor(p.now / 1000);
  return { iss: p.clientId, sub: p.clientId, aud: p.tokenUrl, iat, exp: iat + ASSERTION_TTL_S, jti: p.jti };
}

/** The token request's form body. */
export function tokenRequestBody(assertion: string, scopes: readonly string[]): URLSearchParams {
  return new URLSearchParams({
    grant_type: "client_credentials",
    client_assertion_type: "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
    client_assertion: assertion,
    scope: [...scopes].sort().join(" "),
  });
}

export interface AccessToken {
  token: string;
  /** Unix ms. */
  expiresAt: number;
}

/** A refused or failed token request: `retry` when the platform may answer next time (5xx, 429, a network error). */
export interface TokenFailure {
  error: string;
  retry: boolean;
}

/** When a platform gives no `expires_in`: an hour, as RFC 6749 examples and every LMS use. */
const DEFAULT_EXPIRES_S = 3600;

/**
 * The token of the token endpoint's answer, or why there is none. The platform's own words (its
 * `error` and `error_description`) are kept for the delivery log; the token never is.
 */
export function readTokenResponse(status: number, body: unknown, now: number): AccessToken | TokenFailure {
  const b = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
  if (status < 200 || status > 299) {
    const said = [b.error, b.error_description].filter((x) => typeof x === "string").join(": ");
    return {
      error: `the platform refused the access token request (${status}${said ? `: ${printable(said)}` : ""})`,
      retry: status >= 500 || status === 429,
    };
  }
  if (typeof b.access_token !== "string" || b.access_token === "")
    return { error: "the platform's token answer has no access_token", retry: false };
  if (typeof b.token_type === "string" && b.token_type.toLowerCase() !== "bearer")
    return { error: `the platform's token is of type "${printable(b.token_type)}", not bearer`, retry: false };
  const expires = typeof b.expires_in === "number" && b.expires_in > 0 ? b.expires_in : DEFAULT_EXPIRES_S;
  return { token: b.access_token, expiresAt: now + expires * 1000 };
}

/** A token is used until a minute before it expires: a request started with it must still find it good. */
export const EXPIRY_MARGIN_MS = 60_000;

export function isFresh(token: AccessToken, now: number): boolean {
  return token.expiresAt - EXPIRY_MARGIN_MS > now;
}

/** What a token is cached under: one platform registration (token URL and client id) and one scope set. */
export function tokenCacheKey(p: { tokenUrl: string; clientId: string }, scopes: readonly string[]): string {
  return JSON.stringify([p.tokenUrl, p.clientId, [...new Set(scopes)].sort()]);
}

/**
 * The tokens of this isolate, each under its key, and the requests in flight: many scores posted at
 * once ask one token request, not one each. Time is passed in, so the rule is tested without waiting.
 */
export class TokenCache {
  private readonly tokens = new Map<string, AccessToken>();
  private readonly inFlight = new Map<string, Promise<AccessToken | TokenFailure>>();

  async get(key: string, now: number, fetchToken: () => Promise<AccessToken | TokenFailure>): Promise<AccessToken | TokenFailure> {
    const cached = this.tokens.get(key);
    if (cached && isFresh(cached, now)) return cached;
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = fetchToken().finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    const got = await pending;
    if ("token" in got) this.tokens.set(key, got);
    return got;
  }

  /** The platform refused a token it issued (a 401 on a service call): the next call asks a new one. */
  drop(key: string): void {
    this.tokens.delete(key);
  }
}

/** A platform's words, cut short and kept to printable characters, for a log the instructor reads. */
export function printable(text: string, max = 200): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this removes
  const clean = text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, " ").trim();
  return clean.length > max ? `${clean.slice(0, max)}…` : clean;
}

/**
 * A platform's words about a call made with `token`, fit for a log the instructor reads: printable,
 * cut short, and without the token, should the platform echo the request back.
 */
export function platformWords(text: string, token: string): string {
  return printable(token === "" ? text : text.split(token).join("[token]"));
}
