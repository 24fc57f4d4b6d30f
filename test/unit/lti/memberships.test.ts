import { describe, expect, it } from "vitest";
import { learnersOfPage, nextPageUrl, rosterOf } from "../../../src/lti/memberships";

const LEARNER = "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner";
const INSTRUCTOR = "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor";

describe("a page of the course's members", () => {
  it("keeps the active learners, with their names", () => {
    const page = {
      id: "https://lms.example/memberships",
      members: [
        { user_id: "u1", roles: [LEARNER], name: "Ada Lovelace", status: "Active" },
        { user_id: "u2", roles: ["Learner"], given_name: "Grace", family_name: "Hopper" },
        { user_id: "u3", roles: [INSTRUCTOR] },
        { user_id: "u4", roles: [LEARNER], status: "Inactive" },
        { user_id: "u5", roles: [LEARNER], status: "Deleted" },
        { user_id: "u6", roles: [INSTRUCTOR, LEARNER] },
        { user_id: "u7", roles: ["http://purl.imsglobal.org/vocab/lis/v2/institution/person#Learner"] },
        { user_id: "", roles: [LEARNER] },
        { roles: [LEARNER] },
        "not a member",
        { user_id: "u8", roles: [LEARNER] },
      ],
    };
    expect(learnersOfPage(page)).toEqual([
      { userId: "u1", name: "Ada Lovelace" },
      { userId: "u2", name: "Grace Hopper" },
      { userId: "u6", name: null },
      { userId: "u8", name: null },
    ]);
  });

  it("reads nothing from what is not a membership container", () => {
    for (const body of [null, {}, { members: "x" }, [], "text"]) expect(learnersOfPage(body)).toEqual([]);
  });
});

describe("the next page", () => {
  const here = "https://lms.example/api/memberships?page=1";
  it("is the Link header's rel=next, resolved against the page's URL", () => {
    expect(nextPageUrl('<https://lms.example/api/memberships?page=2>; rel="next"', here)).toBe(
      "https://lms.example/api/memberships?page=2",
    );
    expect(nextPageUrl("</api/memberships?page=2>; rel=next", here)).toBe("https://lms.example/api/memberships?page=2");
    expect(
      nextPageUrl(
        '<https://lms.example/a?page=1>; rel="first", <https://lms.example/a?page=3>; rel="next", <https://lms.example/a?page=9>; rel="last"',
        here,
      ),
    ).toBe("https://lms.example/a?page=3");
    expect(nextPageUrl('<https://lms.example/a?x=1,2>; rel="prev next"', here)).toBe("https://lms.example/a?x=1,2");
    expect(nextPageUrl('<https://lms.example/d>; rel="differences"', here)).toBeNull();
    expect(nextPageUrl("", here)).toBeNull();
    expect(nextPageUrl(null, here)).toBeNull();
    expect(nextPageUrl("garbage", here)).toBeNull();
  });
});

describe("the roster", () => {
  it("lists each learner once, in the platform's order, with their answer or none", () => {
    const members = [
      { userId: "u2", name: "B" },
      { userId: "u1", name: "A" },
      { userId: "u2", name: "B" },
      { userId: "u3", name: null },
    ];
    expect(
      rosterOf(
        members,
        new Map([
          ["u1", "ans-1"],
          ["u9", "ans-9"],
        ]),
      ),
    ).toEqual([
      { userId: "u2", name: "B", answered: false, answerId: null },
      { userId: "u1", name: "A", answered: true, answerId: "ans-1" },
      { userId: "u3", name: null, answered: false, answerId: null },
    ]);
  });
});
