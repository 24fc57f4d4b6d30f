import { describe, expect, it } from "vitest";
import { parseToolKeys, publicKeySet, servedKeys, signingKey, type ToolKey } from "../../../src/lti/tool-keys";

const jwk = (kid: string, extra: Record<string, unknown> = {}) => ({
  kty: "RSA",
  kid,
  n: `n-${kid}`,
  e: "AQAB",
  d: `d-${kid}`,
  p: "p",
  q: "q",
  dp: "dp",
  dq: "dq",
  qi: "qi",
  ...extra,
});
const keysOf = (list: unknown[]): ToolKey[] => {
  const parsed = parseToolKeys(JSON.stringify(list));
  if ("error" in parsed) throw new Error(parsed.error);
  return parsed.keys;
};
const now = Date.parse("2026-06-01T00:00:00Z");

describe("the tool's keys", () => {
  it("serves the current key and a retired one until its notAfter, and signs with the current one", () => {
    const keys = keysOf([jwk("new"), jwk("old", { notAfter: "2026-06-08T00:00:00Z" }), jwk("gone", { notAfter: "2026-05-01T00:00:00Z" })]);
    expect(servedKeys(keys, now).map((k) => k.kid)).toEqual(["new", "old"]);
    expect(signingKey(keys, now)?.kid).toBe("new");
    // a week on, the old key's grace is over
    expect(servedKeys(keys, Date.parse("2026-06-08T00:00:00Z")).map((k) => k.kid)).toEqual(["new"]);
  });

  it("signs with the key retired last when every key is being retired, and with none when all expired", () => {
    const keys = keysOf([jwk("a", { notAfter: "2026-06-02T00:00:00Z" }), jwk("b", { notAfter: "2026-06-05T00:00:00Z" })]);
    expect(signingKey(keys, now)?.kid).toBe("b");
    expect(signingKey(keys, Date.parse("2026-07-01T00:00:00Z"))).toBeNull();
  });

  it("publishes only the public parameters, each key with its kid", () => {
    const set = publicKeySet(keysOf([jwk("k1"), jwk("k2", { notAfter: "2026-06-02T00:00:00Z" })]), now);
    expect(set).toEqual({
      keys: [
        { kty: "RSA", kid: "k1", n: "n-k1", e: "AQAB", alg: "RS256", use: "sig" },
        { kty: "RSA", kid: "k2", n: "n-k2", e: "AQAB", alg: "RS256", use: "sig" },
      ],
    });
    expect(JSON.stringify(set)).not.toContain("d-k1");
  });

  it("refuses a setting it cannot use, naming the entry and never a value", () => {
    expect(parseToolKeys(undefined)).toEqual({ error: "LTI_PRIVATE_KEYS is not set" });
    expect(parseToolKeys("[")).toHaveProperty("error", "LTI_PRIVATE_KEYS is not JSON (a JSON array of private RSA JWKs)");
    expect(parseToolKeys("[]")).toHaveProperty("error");
    const noD = parseToolKeys(JSON.stringify([{ ...jwk("k"), d: undefined }]));
    expect(noD).toEqual({ error: 'LTI_PRIVATE_KEYS[0] (kid k) lacks its "d"' });
    expect(parseToolKeys(JSON.stringify([jwk("k"), jwk("k")]))).toEqual({ error: "LTI_PRIVATE_KEYS[1]: kid k is used twice" });
    expect(parseToolKeys(JSON.stringify([{ ...jwk("k"), kty: "EC" }]))).toHaveProperty(
      "error",
      'LTI_PRIVATE_KEYS[0] must be an RSA key (kty "RSA")',
    );
    const badDate = parseToolKeys(JSON.stringify([jwk("k", { notAfter: "soon" })]));
    expect(badDate).toHaveProperty("error", "LTI_PRIVATE_KEYS[0] (kid k): notAfter must be an ISO 8601 date-time");
    expect(JSON.stringify(noD)).not.toContain("n-k");
  });
});
