import { importJWK, type JWTPayload, SignJWT } from "jose";
/**
 * The tool's own RS256 keys (LTI_PRIVATE_KEYS, a secret): a JSON array of private RSA JWKs, each with
 * its `kid` and, once retired, a `notAfter` (ISO 8601). Rotation is a list edit: put the new key in
 * (without notAfter) and give the old one a notAfter some days ahead; until then platforms that cached
 * the old public key can still check what it signed. Pure: which keys are served and which one signs
 * is decided from the list and the time, here, and tested on made-up lists.
 */

/** The private RSA parameters a JWK carries besides the public `n` and `e`. */
const PRIVATE_PARAMS = ["d", "p", "q", "dp", "dq", "qi"] as const;

export interface ToolKey {
  kid: string;
  /** The JWK as configured, private parameters included: for signing only, never shown. */
  jwk: Record<string, unknown> & { kty: "RSA"; n: string; e: string; d: string };
  /** Unix ms after which the key is neither served nor used; null: current. */
  notAfter: number | null;
}

/** A public key as /lti/jwks serves it. */
export interface PublicToolKey {
  kty: "RSA";
  kid: string;
  n: string;
  e: string;
  alg: "RS256";
  use: "sig";
}

/**
 * The keys of LTI_PRIVATE_KEYS, or why the setting is refused. The reason names the entry and what is
 * wrong with it, never a value of it (the setting is a secret, and the reason is logged).
 */
export function parseToolKeys(text: string | undefined): { keys: ToolKey[] } | { error: string } {
  if (text === undefined || text.trim() === "") return { error: "LTI_PRIVATE_KEYS is not set" };
  let list: unknown;
  try {
    list = JSON.parse(text);
  } catch {
    return { error: "LTI_PRIVATE_KEYS is not JSON (a JSON array of private RSA JWKs)" };
  }
  if (!Array.isArray(list) || list.length === 0) return { error: "LTI_PRIVATE_KEYS must be a non-empty JSON array of private RSA JWKs" };
  const keys: ToolKey[] = [];
  for (const [i, entry] of list.entries()) {
    const e = entry as Record<string, unknown>;
    const where = `LTI_PRIVATE_KEYS[${i}]`;
    if (typeof e !== "object" || e === null) return { error: `${where} is not a JWK object` };
    if (e.kty !== "RSA") return { error: `${where} must be an RSA key (kty "RSA")` };
    if (typeof e.kid !== "string" || e.kid === "") return { error: `${where} must have a kid` };
    for (const p of ["n", "e", ...PRIVATE_PARAMS])
      if (typeof e[p] !== "string" || e[p] === "") return { error: `${where} (kid ${e.kid}) lacks its "${p}"` };
    let notAfter: number | null = null;
    if (e.notAfter !== undefined) {
      notAfter = typeof e.notAfter === "string" ? Date.parse(e.notAfter) : Number.NaN;
      if (!Number.isFinite(notAfter)) return { error: `${where} (kid ${e.kid}): notAfter must be an ISO 8601 date-time` };
    }
    if (keys.some((k) => k.kid === e.kid)) return { error: `${where}: kid ${e.kid} is used twice` };
    const { notAfter: _dropped, ...jwk } = e;
    keys.push({ kid: e.kid, jwk: jwk as ToolKey["jwk"], notAfter });
  }
  return { keys };
}

/** The keys in force at `now`: no notAfter, or one still ahead. These are served at /lti/jwks. */
export function servedKeys(keys: readonly ToolKey[], now: number): ToolKey[] {
  return keys.filter((k) => k.notAfter === null || k.notAfter > now);
}

/**
 * The key the tool signs with at `now`: the first current key without a notAfter (the newest, when the
 * list is kept newest first); when every key is being retired, the one retired last, so the tool keeps
 * signing with a key platforms can still check. Null when every key has expired.
 */
export function signingKey(keys: readonly ToolKey[], now: number): ToolKey | null {
  const served = servedKeys(keys, now);
  const current = served.find((k) => k.notAfter === null);
  if (current) return current;
  return served.reduce<ToolKey | null>((best, k) => (best === null || (k.notAfter ?? 0) > (best.notAfter ?? 0) ? k : best), null);
}

/** The public half of a key: only kty, n and e of the RSA parameters, with its kid. */
export function publicKey(key: ToolKey): PublicToolKey {
  return { kty: "RSA", kid: key.kid, n: key.jwk.n, e: key.jwk.e, alg: "RS256", use: "sig" };
}

/** The JWKS served at `now`. */
export function publicKeySet(keys: readonly ToolKey[], now: number): { keys: PublicToolKey[] } {
  return { keys: servedKeys(keys, now).map(publicKey) };
}

/**
 * The claims signed RS256 with the tool's key, its `kid` in the header so the platform finds it in
 * /lti/jwks: what the tool sends a platform (a deep linking response, a token request's assertion).
 */
export async function signAsTool(claims: JWTPayload, key: ToolKey): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: "RS256", typ: "JWT", kid: key.kid })
    .sign(await importJWK({ ...key.jwk, alg: "RS256" }, "RS256"));
}
