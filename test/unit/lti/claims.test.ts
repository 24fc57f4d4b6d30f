import { describe, expect, it } from "vitest";
import { CLAIM, claimsRefusal } from "../../../src/lti/claims";
import { courseRole, launchOf } from "../../../src/lti/launch";

const now = 1_800_000_000;
const expect_ = { clientId: "tool", deploymentIds: ["dep-1"], nonce: "n-1", now };
const good: Record<string, unknown> = {
  iss: "https://lms.example",
  aud: "tool",
  sub: "user-1",
  iat: now - 5,
  exp: now + 300,
  nonce: "n-1",
  [CLAIM.messageType]: "LtiResourceLinkRequest",
  [CLAIM.version]: "1.3.0",
  [CLAIM.deploymentId]: "dep-1",
  [CLAIM.resourceLink]: { id: "rl-1", title: "Week 3" },
  [CLAIM.roles]: ["http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"],
};
const refusal = (changes: Record<string, unknown>) => claimsRefusal({ ...good, ...changes }, expect_)?.code ?? null;

describe("a launch's LTI claims", () => {
  it("takes a resource link launch and a deep linking request", () => {
    expect(refusal({})).toBeNull();
    expect(
      refusal({ [CLAIM.messageType]: "LtiDeepLinkingRequest", [CLAIM.resourceLink]: undefined, [CLAIM.deepLinkingSettings]: {} }),
    ).toBeNull();
  });

  it("refuses each claim that is wrong or missing", () => {
    expect(refusal({ nonce: "n-2" })).toBe("wrong-nonce");
    expect(refusal({ nonce: undefined })).toBe("wrong-nonce");
    expect(refusal({ [CLAIM.deploymentId]: "dep-2" })).toBe("unknown-deployment");
    expect(refusal({ [CLAIM.deploymentId]: undefined })).toBe("missing-claim");
    expect(refusal({ [CLAIM.messageType]: "LtiSubmissionReviewRequest" })).toBe("wrong-message-type");
    expect(refusal({ [CLAIM.version]: "1.1" })).toBe("wrong-version");
    expect(refusal({ sub: "" })).toBe("missing-claim");
    expect(refusal({ [CLAIM.resourceLink]: {} })).toBe("missing-claim");
    expect(refusal({ [CLAIM.messageType]: "LtiDeepLinkingRequest" })).toBe("missing-claim");
    expect(refusal({ [CLAIM.roles]: undefined })).toBe("missing-claim");
    expect(refusal({ iat: now + 600 })).toBe("not-yet-valid");
    expect(refusal({ iat: now - 3600 })).toBe("expired");
  });

  it("asks the authorized party to be this tool when the token names several audiences", () => {
    expect(refusal({ aud: ["tool", "other"] })).toBe("wrong-audience");
    expect(refusal({ aud: ["tool", "other"], azp: "other" })).toBe("wrong-audience");
    expect(refusal({ aud: ["tool", "other"], azp: "tool" })).toBeNull();
    expect(refusal({ azp: "other" })).toBe("wrong-audience");
  });

  it("names the deployment received, cut short and without control characters", () => {
    const r = claimsRefusal({ ...good, [CLAIM.deploymentId]: `x\u0000${"y".repeat(200)}` }, expect_);
    expect(r?.detail).toContain(`"x${"y".repeat(79)}…"`);
  });
});

describe("the course role", () => {
  const M = "http://purl.imsglobal.org/vocab/lis/v2/membership";
  it("reads context roles, sub-roles and the short names; institution roles do not count", () => {
    expect(courseRole([`${M}#Instructor`])).toBe("instructor");
    expect(courseRole([`${M}/Instructor#TeachingAssistant`])).toBe("instructor");
    expect(courseRole([`${M}#ContentDeveloper`])).toBe("instructor");
    expect(courseRole([`${M}#Learner`, `${M}#Instructor`])).toBe("instructor");
    expect(courseRole([`${M}#Learner`])).toBe("learner");
    expect(courseRole(["Learner"])).toBe("learner");
    expect(courseRole(["http://purl.imsglobal.org/vocab/lis/v2/institution/person#Instructor", `${M}#Learner`])).toBe("learner");
    expect(courseRole([`${M}#Mentor`])).toBe("other");
    expect(courseRole([42, null])).toBe("other");
  });

  it("reads who launched from which link, with the name from its parts when only they are sent", () => {
    const launch = launchOf({ ...good, given_name: "Ada", family_name: "Lovelace", [CLAIM.context]: { id: "c1", label: "CS101" } });
    expect(launch).toEqual({
      messageType: "LtiResourceLinkRequest",
      deploymentId: "dep-1",
      sub: "user-1",
      name: "Ada Lovelace",
      role: "learner",
      resourceLink: { id: "rl-1", title: "Week 3" },
      context: { id: "c1", title: "CS101" },
    });
  });
});
