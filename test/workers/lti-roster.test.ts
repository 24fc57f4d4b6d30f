import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { database } from "../../src/db/database";
import { bindLtiLink } from "./lti-bindings";
import { newKey, request, uniqueTag } from "./helpers";
import { linkedCollection, received, setUpServices } from "./lti-course";
import { platformUrl } from "./lti-helpers";

const LEARNER = "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner";
const INSTRUCTOR = "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor";

describe("the course roster (NRPS)", () => {
  it("lists the course's active learners, every page of them, with who has not answered yet", async () => {
    const { tag, key, collection, answers } = await linkedCollection("nrps", { qualities: [4, 7] });
    await setUpServices(tag, {
      pageSize: 2,
      roster: [
        { user_id: "teacher-1", roles: [INSTRUCTOR], name: "Grace Hopper" },
        { user_id: "learner-0", roles: [LEARNER], name: "Learner 0", status: "Active" },
        { user_id: "learner-2", roles: [LEARNER], name: "Katherine Johnson" },
        { user_id: "learner-1", roles: [LEARNER], name: "Learner 1" },
        { user_id: "learner-gone", roles: [LEARNER], name: "Left the course", status: "Inactive" },
        { user_id: "learner-3", roles: [LEARNER], given_name: "Dorothy", family_name: "Vaughan" },
      ],
    });
    const r = await request("GET", `/v1/collections/${collection.id}/lti-roster`, { key });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      collectionId: collection.id,
      data: [
        { userId: "learner-0", name: "Learner 0", answered: true, answerId: answers[0].id },
        { userId: "learner-2", name: "Katherine Johnson", answered: false, answerId: null },
        { userId: "learner-1", name: "Learner 1", answered: true, answerId: answers[1].id },
        { userId: "learner-3", name: "Dorothy Vaughan", answered: false, answerId: null },
      ],
      answered: 2,
      notAnswered: 2,
    });
    const got = await received(tag);
    // three pages, by Link rel="next", on one token asked with the roster's scope
    expect(got.membershipReads).toBe(3);
    expect(got.tokenRequests).toEqual([
      { scope: "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly", answered: 200 },
    ]);
    await request("GET", `/v1/collections/${collection.id}/lti-roster`, { key });
    expect((await received(tag)).tokenRequests).toHaveLength(1);
  });

  it("is a 409 for a collection whose course offered no roster, a 502 with the platform's words when it fails, a 404 to another tenant", async () => {
    const { key, collection, tag, platform, tenant } = await linkedCollection("nrps-fail", { qualities: [5, 6] });
    const own = await request("POST", "/v1/collections", {
      key,
      body: { question: "What is a heap?", allowedOrigins: ["https://course.example"] },
    });
    const unlinked = await request("GET", `/v1/collections/${own.json.id}/lti-roster`, { key });
    expect(unlinked.status).toBe(409);
    expect(unlinked.headers.get("content-type")).toBe("application/problem+json");
    const stranger = await newKey(uniqueTag("nrps-stranger"));
    expect((await request("GET", `/v1/collections/${collection.id}/lti-roster`, { key: stranger })).status).toBe(404);
    expect((await request("GET", `/v1/collections/${collection.id}/lti-scores`, { key: stranger })).status).toBe(404);

    await bindLtiLink(
      database(env.DB),
      {
        collectionId: collection.id,
        tenant,
        platformId: platform.id,
        deploymentId: "dep-1",
        membershipsUrl: `${platformUrl(tag)}/nothing-here`,
      },
      Date.now(),
    );
    const failed = await request("GET", `/v1/collections/${collection.id}/lti-roster`, { key });
    expect(failed.status).toBe(502);
    expect(failed.json.detail).toBe("the course's roster could not be read: the platform's roster answered 404: no such path");
  });
});
