import { describe, expect, inject, it } from "vitest";
import { placesHolding } from "./data-scan";
import { newKey, request, uniqueTag } from "./helpers";
import { registerPlatform } from "./lti-helpers";

describe("the tool's keys", () => {
  it("serves the current key and the one in its grace period, public parts only, and never the expired one", async () => {
    const configured = JSON.parse(inject("ltiToolKeys")) as Record<string, string>[];
    const r = await request("GET", "/lti/jwks");
    expect(r.status).toBe(200);
    expect(r.json.keys.map((k: { kid: string }) => k.kid)).toEqual([configured[0].kid, configured[1].kid]);
    for (const k of r.json.keys) expect(Object.keys(k).sort()).toEqual(["alg", "e", "kid", "kty", "n", "use"]);
    expect(r.json.keys[0].n).toBe(configured[0].n);
  });

  it("keeps the private key out of D1, the OpenAPI document and the answers of the LTI routes", async () => {
    const configured = JSON.parse(inject("ltiToolKeys")) as Record<string, string>[];
    const key = await newKey(uniqueTag("lti-secret"), ["admin"]);
    await registerPlatform(key, uniqueTag("secret"));
    for (const k of configured) {
      for (const part of [k.d, k.p, k.q]) {
        expect(await placesHolding(part.slice(0, 40))).toEqual([]);
        const doc = await request("GET", "/openapi.json");
        expect(JSON.stringify(doc.json)).not.toContain(part.slice(0, 40));
        expect(JSON.stringify((await request("GET", "/lti/jwks")).json)).not.toContain(part.slice(0, 40));
      }
    }
  });
});
