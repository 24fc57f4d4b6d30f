import { describe, expect, it } from "vitest";
import { deepLinkingResponseClaims, deepLinkingSettingsOf, resourceLinkItem, titleOf } from "../../../src/lti/deep-linking";
import { labelOf, questionRequestOf, rubricOf } from "../../../src/lti/question-form";
import { linkedCollectionOf, linkRefusal, servicesOf } from "../../../src/lti/resource-link";
import { collectionBody } from "../../../src/contract";

const DL = "https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings";

describe("deep linking", () => {
  it("reads the return URL and data, and refuses a picker that takes no resource link", () => {
    expect(deepLinkingSettingsOf({ [DL]: { deep_link_return_url: "https://lms/r", data: "d1" } })).toEqual({
      returnUrl: "https://lms/r",
      data: "d1",
    });
    expect(deepLinkingSettingsOf({ [DL]: { deep_link_return_url: "https://lms/r", accept_types: ["ltiResourceLink", "link"] } })).toEqual({
      returnUrl: "https://lms/r",
      data: null,
    });
    expect(deepLinkingSettingsOf({ [DL]: { deep_link_return_url: "https://lms/r", accept_types: ["file"] } })).toMatchObject({
      code: "wrong-message-type",
    });
    expect(deepLinkingSettingsOf({ [DL]: { deep_link_return_url: "javascript:alert(1)" } })).toMatchObject({ code: "missing-claim" });
    expect(deepLinkingSettingsOf({})).toMatchObject({ code: "missing-claim" });
  });

  it("builds the response's claims: the tool as issuer, the platform as audience, the item with its line item, data echoed", () => {
    const item = resourceLinkItem({ collectionId: "col_1", title: "Stacks", maxScore: 8, launchUrl: "https://tool/lti/launch" });
    expect(item).toEqual({
      type: "ltiResourceLink",
      title: "Stacks",
      url: "https://tool/lti/launch?collection=col_1",
      custom: { collection: "col_1" },
      lineItem: { scoreMaximum: 8, label: "Stacks", resourceId: "col_1" },
    });
    const claims = deepLinkingResponseClaims({
      clientId: "c",
      platformIssuer: "https://lms",
      deploymentId: "d",
      nonce: "n",
      data: "x",
      items: [item],
    });
    expect(claims).toEqual({
      iss: "c",
      aud: "https://lms",
      nonce: "n",
      "https://purl.imsglobal.org/spec/lti/claim/message_type": "LtiDeepLinkingResponse",
      "https://purl.imsglobal.org/spec/lti/claim/version": "1.3.0",
      "https://purl.imsglobal.org/spec/lti/claim/deployment_id": "d",
      "https://purl.imsglobal.org/spec/lti-dl/claim/content_items": [item],
      "https://purl.imsglobal.org/spec/lti-dl/claim/data": "x",
    });
    // no data sent, none echoed
    expect(
      Object.keys(deepLinkingResponseClaims({ clientId: "c", platformIssuer: "i", deploymentId: "d", nonce: "n", data: null, items: [] })),
    ).not.toContain("https://purl.imsglobal.org/spec/lti-dl/claim/data");
    expect(titleOf(`  ${"x".repeat(100)}\nsecond line`)).toBe(`${"x".repeat(79)}…`);
  });

  it("reads the form into the collection request the API checks: blanks left to the defaults, a zone-less deadline as UTC", () => {
    const request = questionRequestOf(
      { question: "Q", maxScore: "8", method: "", deadline: "2099-01-02T10:30", maxAnswers: "4" },
      "https://tool",
    );
    expect(request).toEqual({
      question: "Q",
      maxScore: 8,
      closing: { deadline: "2099-01-02T10:30:00Z", maxAnswers: 4 },
      allowedOrigins: ["https://tool"],
    });
    // the schema's own checks then hold (the deadline's distance from now is its business, not tested here)
    const parsed = collectionBody.parse({ ...request, closing: { maxAnswers: 4 } });
    expect(parsed).toMatchObject({ method: "knockout", release: "manual", maxScore: 8 });
    expect(questionRequestOf({ question: "Q", deadline: "2099-01-02T10:30:00+02:00" }, "https://t").closing).toEqual({
      deadline: "2099-01-02T10:30:00+02:00",
    });
    // a number that is not one reaches the schema as NaN, which refuses it by the field's name
    const bad = collectionBody.safeParse(questionRequestOf({ question: "Q", maxScore: "ten" }, "https://t"));
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0].path).toEqual(["maxScore"]);
  });
});

describe("the form's rubric box", () => {
  it("reads one criterion a line, name then description, blank lines skipped, and names a bad line", () => {
    expect(rubricOf("Correctness: names LIFO\n\n  Example  \r\nClarity: ")).toEqual({
      criteria: [{ name: "Correctness", description: "names LIFO" }, { name: "Example" }, { name: "Clarity" }],
    });
    const request = questionRequestOf({ question: "Q", method: "individual", rubric: "A: x\nA: y" }, "https://t");
    const refused = collectionBody.safeParse(request);
    expect(refused.error?.issues.map((i) => i.path.join("."))).toEqual(["rubric.criteria.1.name"]);
    expect(labelOf("rubric.criteria.1.name")).toBe("Rubric, line 2");
    // with another method the collection would fail at closing: refused at once, by the field
    const knockout = collectionBody.safeParse(questionRequestOf({ question: "Q", rubric: "A: x" }, "https://t"));
    expect(knockout.error?.issues[0]).toMatchObject({
      path: ["rubric"],
      message: expect.stringContaining('use it with method "individual"'),
    });
    expect(collectionBody.parse(questionRequestOf({ question: "Q", method: "individual", rubric: "A: x" }, "https://t")).rubric).toEqual({
      criteria: [{ name: "A", description: "x" }],
    });
  });
});

describe("a resource link's question", () => {
  it("is named by the custom claim, else by the target link's collection", () => {
    const custom = "https://purl.imsglobal.org/spec/lti/claim/custom";
    const target = "https://purl.imsglobal.org/spec/lti/claim/target_link_uri";
    expect(linkedCollectionOf({ [custom]: { collection: "col_a" }, [target]: "https://t/lti/launch?collection=col_b" })).toBe("col_a");
    expect(linkedCollectionOf({ [target]: "https://t/lti/launch?collection=col_b" })).toBe("col_b");
    expect(linkedCollectionOf({ [target]: "https://t/lti/launch" })).toBeNull();
    expect(linkedCollectionOf({ [target]: "not a url" })).toBeNull();
  });

  it("keeps the AGS and NRPS endpoints a launch carries, and only http(s) URLs", () => {
    expect(
      servicesOf({
        "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint": { lineitem: "https://l/1", lineitems: "javascript:x", scope: ["s", 3] },
        "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice": { context_memberships_url: "https://l/m" },
      }),
    ).toEqual({ lineItemUrl: "https://l/1", lineItemsUrl: null, agsScopes: ["s"], membershipsUrl: "https://l/m" });
    expect(servicesOf({})).toEqual({});
  });

  it("opens only for the platform that placed it, through the link first bound", () => {
    const launch = { platformId: "p1", resourceLinkId: "r1" };
    expect(linkRefusal(null, launch)).toBe("unknown-activity");
    expect(linkRefusal({ platformId: "p2", resourceLinkId: null }, launch)).toBe("unknown-activity");
    expect(linkRefusal({ platformId: "p1", resourceLinkId: null }, launch)).toBeNull();
    expect(linkRefusal({ platformId: "p1", resourceLinkId: "r1" }, launch)).toBeNull();
    expect(linkRefusal({ platformId: "p1", resourceLinkId: "r2" }, launch)).toBe("activity-elsewhere");
  });
});
