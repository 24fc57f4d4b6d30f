import { describe, expect, it } from "vitest";
import {
  type AccessToken,
  assertionClaims,
  EXPIRY_MARGIN_MS,
  isFresh,
  passbackScopes,
  platformWords,
  printable,
  readTokenResponse,
  SCOPE,
  TokenCache,
  type TokenFailure,
  tokenCacheKey,
  tokenRequestBody,
} from "../../../src/lti/access-token";

const now = 1_800_000_000_000;

describe("the access token's request", () => {
  it("asserts the tool's client id to the token URL, for five minutes, with a fresh jti", () => {
    expect(assertionClaims({ clientId: "c-1", tokenUrl: "https://lms.example/token", now: now + 999, jti: "j-1" })).toEqual({
      iss: "c-1",
      sub: "c-1",
      aud: "https://lms.example/token",
      iat: now / 1000,
      exp: now / 1000 + 300,
      jti: "j-1",
    });
  });

  it("is a client credentials grant with a JWT bearer assertion, scopes sorted", () => {
    const body = tokenRequestBody("a.b.c", [SCOPE.score, SCOPE.lineItem]);
    expect(Object.fromEntries(body)).toEqual({
      grant_type: "client_credentials",
      client_assertion_type: "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
      client_assertion: "a.b.c",
      scope: `${SCOPE.lineItem} ${SCOPE.score}`,
    });
  });

  it("asks the passback's scopes the platform grants, both when it did not say", () => {
    expect(passbackScopes(null)).toEqual([SCOPE.lineItem, SCOPE.score]);
    expect(passbackScopes([SCOPE.score, "https://purl.imsglobal.org/spec/lti-ags/scope/result.readonly"])).toEqual([SCOPE.score]);
    expect(passbackScopes([SCOPE.lineItem])).toEqual([SCOPE.lineItem]);
    expect(passbackScopes([])).toEqual([]);
  });
});

describe("the token endpoint's answer", () => {
  it("gives the token and when it expires (an hour when the platform does not say)", () => {
    expect(readTokenResponse(200, { access_token: "t", token_type: "Bearer", expires_in: 120 }, now)).toEqual({
      token: "t",
      expiresAt: now + 120_000,
    });
    expect(readTokenResponse(200, { access_token: "t", token_type: "bearer" }, now)).toEqual({ token: "t", expiresAt: now + 3_600_000 });
    expect(readTokenResponse(200, { access_token: "t", expires_in: -5 }, now)).toEqual({ token: "t", expiresAt: now + 3_600_000 });
  });

  it("says why there is no token, in the platform's words, and whether to try again", () => {
    const refused = readTokenResponse(401, { error: "invalid_client", error_description: "unknown\nkey" }, now) as TokenFailure;
    expect(refused).toEqual({ error: "the platform refused the access token request (401: invalid_client: unknown key)", retry: false });
    expect((readTokenResponse(503, null, now) as TokenFailure).retry).toBe(true);
    expect((readTokenResponse(429, "slow down", now) as TokenFailure).retry).toBe(true);
    expect((readTokenResponse(400, {}, now) as TokenFailure).error).toBe("the platform refused the access token request (400)");
    expect(readTokenResponse(200, { token_type: "Bearer" }, now)).toEqual({
      error: "the platform's token answer has no access_token",
      retry: false,
    });
    expect(readTokenResponse(200, { access_token: "t", token_type: "mac" }, now)).toEqual({
      error: `the platform's token is of type "mac", not bearer`,
      retry: false,
    });
  });

  it("never repeats the token in a failure", () => {
    const failure = readTokenResponse(200, { access_token: "secret-token", token_type: "DPoP" }, now) as TokenFailure;
    expect(failure.error).not.toContain("secret-token");
  });
});

describe("the token cache", () => {
  it("uses a token until a minute before it expires", () => {
    const t: AccessToken = { token: "t", expiresAt: now + 120_000 };
    expect(isFresh(t, now)).toBe(true);
    expect(isFresh(t, now + 120_000 - EXPIRY_MARGIN_MS - 1)).toBe(true);
    expect(isFresh(t, now + 120_000 - EXPIRY_MARGIN_MS)).toBe(false);
  });

  it("keys a token by token URL, client id and scope set, in any order", () => {
    const p = { tokenUrl: "https://lms.example/token", clientId: "c" };
    expect(tokenCacheKey(p, [SCOPE.score, SCOPE.lineItem])).toBe(tokenCacheKey(p, [SCOPE.lineItem, SCOPE.score, SCOPE.score]));
    expect(tokenCacheKey(p, [SCOPE.score])).not.toBe(tokenCacheKey(p, [SCOPE.lineItem, SCOPE.score]));
    expect(tokenCacheKey(p, [SCOPE.score])).not.toBe(tokenCacheKey({ ...p, clientId: "d" }, [SCOPE.score]));
    expect(tokenCacheKey(p, [SCOPE.score])).not.toBe(tokenCacheKey({ ...p, tokenUrl: "https://other.example/token" }, [SCOPE.score]));
  });

  it("asks one token for many callers at once, keeps it while fresh, asks again once it is not", async () => {
    const cache = new TokenCache();
    let asked = 0;
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const fetchToken = async (): Promise<AccessToken> => {
      asked++;
      await gate;
      return { token: `t${asked}`, expiresAt: now + 120_000 };
    };
    const waiting = Promise.all(Array.from({ length: 5 }, () => cache.get("k", now, fetchToken)));
    release();
    expect((await waiting).map((t) => (t as AccessToken).token)).toEqual(["t1", "t1", "t1", "t1", "t1"]);
    expect(asked).toBe(1);
    expect(await cache.get("k", now + 50_000, fetchToken)).toMatchObject({ token: "t1" });
    expect(await cache.get("k", now + 60_000, fetchToken)).toMatchObject({ token: "t2" });
    expect(await cache.get("other", now, fetchToken)).toMatchObject({ token: "t3" });
    cache.drop("k");
    expect(await cache.get("k", now, fetchToken)).toMatchObject({ token: "t4" });
    expect(asked).toBe(4);
  });

  it("keeps no failure: the next caller asks again", async () => {
    const cache = new TokenCache();
    let asked = 0;
    const failing = async (): Promise<TokenFailure> => {
      asked++;
      return { error: "down", retry: true };
    };
    expect(await cache.get("k", now, failing)).toEqual({ error: "down", retry: true });
    await cache.get("k", now, failing);
    expect(asked).toBe(2);
  });
});

describe("a platform's words", () => {
  it("never carry the token, should the platform echo the request", () => {
    expect(platformWords("bad request: Authorization: Bearer tok-123 (tok-123)", "tok-123")).toBe(
      "bad request: Authorization: Bearer [token] ([token])",
    );
    expect(platformWords("no\ntoken here", "")).toBe("no token here");
  });
});

describe("printable", () => {
  it("removes control characters and cuts long words short", () => {
    expect(printable("a\u0000b\r\nc\u009f")).toBe("a b c");
    expect(printable("x".repeat(300))).toBe(`${"x".repeat(200)}…`);
    expect(printable("abc", 2)).toBe("ab…");
  });
});
