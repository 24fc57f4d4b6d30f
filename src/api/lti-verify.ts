import { createRemoteJWKSet, errors, jwtVerify } from "jose";
import { CLOCK_SKEW_S, MAX_TOKEN_AGE_S } from "../lti/claims";
import type { LaunchRefusal } from "../lti/refusals";

/**
 * A platform's JWKS as jose keeps it: fetched on first use, kept 10 minutes, and refetched when a
 * token names a kid it does not list, at most once per cooldown. One per JWKS URL and cooldown, kept
 * for the isolate's life, so launches share it (a new URL after a PATCH gets its own).
 */
const keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

function keySetOf(jwksUrl: string, cooldownMs: number) {
  const id = `${cooldownMs} ${jwksUrl}`;
  let set = keySets.get(id);
  if (!set) {
    set = createRemoteJWKSet(new URL(jwksUrl), { cooldownDuration: cooldownMs, timeoutDuration: 5_000 });
    keySets.set(id, set);
  }
  return set;
}

/**
 * The id_token's claims once jose has checked its signature (RS256 only) against the platform's JWKS,
 * its `iss`, `aud`, `exp` and `iat`; or why not. The LTI claims are checked after (src/lti/claims.ts).
 */
export async function verifyIdToken(
  idToken: string,
  platform: { issuer: string; clientId: string; jwksUrl: string },
  cooldownMs: number,
): Promise<{ claims: Record<string, unknown> } | LaunchRefusal> {
  try {
    const { payload } = await jwtVerify(idToken, keySetOf(platform.jwksUrl, cooldownMs), {
      algorithms: ["RS256"],
      issuer: platform.issuer,
      audience: platform.clientId,
      clockTolerance: CLOCK_SKEW_S,
      maxTokenAge: MAX_TOKEN_AGE_S,
    });
    return { claims: payload as Record<string, unknown> };
  } catch (err) {
    return refusalOf(err);
  }
}

function refusalOf(err: unknown): LaunchRefusal {
  if (err instanceof errors.JWTExpired) return { code: "expired" };
  if (err instanceof errors.JWTClaimValidationFailed) {
    if (err.claim === "iss") return { code: "wrong-issuer" };
    if (err.claim === "aud") return { code: "wrong-audience" };
    if (err.claim === "iat" || err.claim === "nbf") return { code: "not-yet-valid" };
    return { code: "missing-claim", detail: `Missing or wrong: ${err.claim}.` };
  }
  if (err instanceof errors.JWSSignatureVerificationFailed) return { code: "bad-signature" };
  if (err instanceof errors.JWKSNoMatchingKey || err instanceof errors.JWKSMultipleMatchingKeys) return { code: "unknown-key" };
  if (err instanceof errors.JOSEAlgNotAllowed) return { code: "bad-signature", detail: "It is not signed with RS256." };
  if (err instanceof errors.JWSInvalid || err instanceof errors.JWTInvalid) return { code: "malformed-token" };
  // the JWKS could not be fetched or read: a timeout, a network error, a non-200, not a key set
  if (err instanceof errors.JWKSTimeout || err instanceof errors.JWKSInvalid || err instanceof errors.JOSEError || err instanceof TypeError)
    return { code: "jwks-unreachable" };
  throw err;
}
