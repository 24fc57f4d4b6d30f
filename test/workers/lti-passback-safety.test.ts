import { env } from "cloudflare:workers";
import { describe, expect, inject, it } from "vitest";
import { database } from "../../src/db/database";
import { bindLtiLink } from "./lti-bindings";
import { placesHolding } from "./data-scan";
import { responseSchema, undocumented } from "./documented";
import { ADMIN, request } from "./helpers";
import { linkedCollection, received, settledScores, setUpServices, taken } from "./lti-course";
import { platformUrl } from "./lti-helpers";

type Entry = { userId: string; state: string; versions: { attempts: { status: number | null; error: string | null }[] }[] };

describe("LTI grade passback: secrets, refusals, erasure", () => {
  it("never shows the platform's access token or the tool's private key, nor stores the token", async () => {
    const { tag, key, tenant, collection, evaluation } = await linkedCollection("ags-secrets");
    // one post refused by a platform that echoes the request, token and all, in its words
    await setUpServices(tag, {
      roster: [{ user_id: "learner-0", roles: ["Learner"] }],
      faults: [{ status: 400, echo: true, userId: "learner-2" }],
    });
    await request("POST", `/v1/evaluations/${evaluation}/release`, { key });
    await settledScores(key, collection.id, 3);
    const admin = (await request("POST", "/v1/keys", { key: ADMIN, body: { tenant, scopes: ["read", "write", "admin"] } })).json.key;
    const responses = [
      await request("GET", `/v1/collections/${collection.id}/lti-scores`, { key }),
      await request("GET", `/v1/collections/${collection.id}/lti-roster`, { key }),
      await request("GET", `/v1/collections/${collection.id}`, { key }),
      await request("GET", `/v1/evaluations/${evaluation}`, { key }),
      await request("GET", "/v1/lti/platforms", { key: admin }),
      await request("GET", "/v1/audit", { key: admin }),
      await request("GET", "/lti/jwks"),
      await request("GET", "/openapi.json"),
      await request("GET", "/v1/tenant/export", { key: admin }),
    ];
    for (const r of responses) expect(r.status).toBe(200);
    // the API's answers (the first six) name no field the document does not
    const doc = responses[7].json;
    const paths = [
      `/v1/collections/${collection.id}/lti-scores`,
      `/v1/collections/${collection.id}/lti-roster`,
      `/v1/collections/${collection.id}`,
      `/v1/evaluations/${evaluation}`,
      "/v1/lti/platforms",
      "/v1/audit",
    ];
    for (const [i, path] of paths.entries())
      expect(undocumented(responses[i].json, responseSchema(doc, "GET", path, 200)), path).toEqual([]);
    const echoed = responses[0].json.data.find((d: Entry) => d.userId === "learner-2") as Entry;
    expect(echoed.versions[0].attempts[0].error).toBe("answered 400: refused: Bearer [token]");
    const bodies = responses.map((r) => JSON.stringify(r.json));
    const { tokens } = await received(tag);
    expect(tokens).toHaveLength(2);
    const privateParts = (JSON.parse(inject("ltiToolKeys")) as Record<string, string>[]).flatMap((k) =>
      ["d", "p", "q", "dp", "dq", "qi"].map((p) => k[p]),
    );
    for (const secret of [...tokens, ...privateParts]) {
      for (const body of bodies) expect(body).not.toContain(secret);
      // nor in D1 or any object's storage
      expect(await placesHolding(secret)).toEqual([]);
    }
  });

  it("fails a score for good when the platform refuses the tool's token, in the platform's words", async () => {
    const { tag, key, collection, evaluation } = await linkedCollection("ags-badclient");
    // the platform's admin never registered the tool's keys: every assertion is refused
    await fetch(`${platformUrl(tag)}/tool-jwks`, { method: "POST", body: JSON.stringify({ keys: [] }) });
    await request("POST", `/v1/evaluations/${evaluation}/release`, { key });
    const view = await settledScores(key, collection.id, 3);
    expect(view.counts).toEqual({ queued: 0, posted: 0, failed: 3 });
    const [attempt] = (view.data[0] as Entry).versions[0].attempts;
    expect(attempt.status).toBeNull();
    expect(attempt.error).toMatch(
      /^the platform refused the access token request \(401: invalid_client: the client assertion is not valid: /,
    );
    expect((await received(tag)).scores).toEqual([]);

    // the LMS admin registers the tool's keys; the instructor sends the failed scores again, once
    await fetch(`${platformUrl(tag)}/tool-jwks`, { method: "POST", body: JSON.stringify((await request("GET", "/lti/jwks")).json) });
    const retried = await request("POST", `/v1/collections/${collection.id}/lti-scores/retry`, { key });
    expect(retried.json).toEqual({ collectionId: collection.id, requeued: 3 });
    const fixed = await settledScores(key, collection.id, 3);
    expect(fixed.counts).toEqual({ queued: 0, posted: 3, failed: 0 });
    expect((fixed.data[0] as Entry).versions[0].attempts.map((a) => a.status)).toEqual([null, 200]);
    expect(taken((await received(tag)).scores)).toHaveLength(3);
    expect((await request("POST", `/v1/collections/${collection.id}/lti-scores/retry`, { key })).json.requeued).toBe(0);
  });

  it("does not call a line item URL on a private address, whatever the launch said", async () => {
    const { tag, key, tenant, platform, collection, evaluation } = await linkedCollection("ags-private");
    await bindLtiLink(
      database(env.DB),
      { collectionId: collection.id, tenant, platformId: platform.id, deploymentId: "dep-1", lineItemUrl: "https://10.0.0.7/lineitems/1" },
      Date.now(),
    );
    await request("POST", `/v1/evaluations/${evaluation}/release`, { key });
    const view = await settledScores(key, collection.id, 3);
    expect(view.counts.failed).toBe(3);
    expect((view.data[0] as Entry).versions[0].attempts[0].error).toMatch(/^not sent: the line item URL /);
    expect((await received(tag)).tokenRequests).toEqual([]);
  });

  it("forgets a learner's scores with the person, and the whole queue with the collection", async () => {
    const { key, tenant, collection, evaluation, answers } = await linkedCollection("ags-erase");
    const canary = `cnry${crypto.randomUUID().slice(0, 8)}`;
    await request("PUT", `/v1/evaluations/${evaluation}/answers/${answers[0].id}/feedback`, { key, body: { text: `For you: ${canary}` } });
    await request("PUT", `/v1/evaluations/${evaluation}/answers/${answers[1].id}/feedback`, { key, body: { text: `And you: ${canary}x` } });
    await request("POST", `/v1/evaluations/${evaluation}/release`, { key });
    await settledScores(key, collection.id, 3);
    expect(await placesHolding(canary)).toContain("do LtiScores score.body");

    const admin = await request("POST", "/v1/keys", { key: ADMIN, body: { tenant, scopes: ["read", "write", "admin"] } });
    expect((await request("POST", "/v1/subjects/erase", { key: admin.json.key, body: { answerId: answers[0].id } })).status).toBe(200);
    const after = (await request("GET", `/v1/collections/${collection.id}/lti-scores`, { key })).json;
    expect(after.data.find((d: Entry) => d.userId === "learner-0")?.versions ?? []).toEqual([]);
    expect(after.data.find((d: Entry) => d.userId === "learner-1").versions).toHaveLength(1);

    expect((await request("POST", `/v1/collections/${collection.id}/erase`, { key: admin.json.key })).status).toBe(200);
    expect(await placesHolding(canary)).toEqual([]);
  });
});
