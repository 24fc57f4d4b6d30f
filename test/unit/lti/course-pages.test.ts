import { describe, expect, it } from "vitest";
import { instructorPage, learnerPage, scoreText } from "../../../src/lti/course-pages";
import { ltiPagePolicy } from "../../../src/lti/pages";
import { questionFormPage, returnPage } from "../../../src/lti/question-form";

const receipt = (result: unknown = null) => ({
  question: "Q",
  status: "collecting",
  answer: { text: "<b>mine</b>", submittedAt: "2026-01-01T00:00:00.000Z" },
  result: result as never,
});

describe("the LTI course pages", () => {
  it("escapes every value they show, and hold no script but the return page's nonce'd one", () => {
    const pages = [
      learnerPage({
        question: "<script>q</script>",
        open: true,
        receipt: receipt(),
        session: 's"1',
        action: "/lti/answer",
        who: "<i>",
        notice: null,
        receiptUrl: null,
      }),
      instructorPage({
        question: "<script>",
        status: "open",
        answers: [{ id: "a1", name: "<n>", text: "<t>" }],
        maxScore: 10,
        collectionUrl: 'https://t/c"',
        reviewUrl: null,
        expiresAt: "x",
        who: null,
        course: {
          notAnswered: [{ userId: "u1", name: "<n>", answered: false, answerId: null }],
          rosterError: null,
          passback: "on",
          gradebook: { queued: 0, posted: 0, failed: 0 },
        },
      }),
      questionFormPage({
        session: "s",
        action: "/lti/deep-link",
        values: { question: "</textarea><script>" },
        errors: [{ field: "maxScore", reason: "<bad>" }],
        course: "<c>",
      }),
    ];
    for (const html of pages) expect(html).not.toMatch(/<script|<b>|<i>|<n>|<t>|<c>|<bad>/);
    const back = returnPage({ returnUrl: "https://lms/return", jwt: "a.b.c", scriptNonce: "N", title: "<T>" });
    expect(back.match(/<script/g)).toHaveLength(1);
    expect(back).toContain('<script nonce="N">');
    expect(ltiPagePolicy("https://lms", "N")).toContain("form-action https://lms; script-src 'nonce-N'");
    expect(ltiPagePolicy("'self'")).not.toContain("script-src");
  });

  it("shows the learner the form while open, their answer, and a grade only when the receipt carries one", () => {
    const open = learnerPage({
      question: "Q",
      open: true,
      receipt: null,
      session: "s",
      action: "/a",
      who: null,
      notice: null,
      receiptUrl: null,
    });
    expect(open).toContain('<textarea id="text" name="text" required></textarea>');
    const closed = learnerPage({
      question: "Q",
      open: false,
      receipt: { ...receipt(), status: "in review" },
      session: "s",
      action: "/a",
      who: null,
      notice: null,
      receiptUrl: null,
    });
    expect(closed).not.toContain("<textarea");
    expect(closed).not.toContain('id="grade"');
    const graded = learnerPage({
      question: "Q",
      open: false,
      receipt: {
        ...receipt({ finalScore: 6.666, maxScore: 10, releasedAt: "x", updatedAt: null, feedback: { text: "Good" } }),
        status: "graded",
      },
      session: "s",
      action: "/a",
      who: null,
      notice: null,
      receiptUrl: null,
    });
    expect(graded).toContain('<span id="grade">6.67 of 10</span>');
    expect(graded).toContain(">Good</p>");
    expect(scoreText(7)).toBe("7");
    expect(scoreText(0.998)).toBe("1");
  });

  it("tells the instructor who has not answered, why the roster is missing, and where the grades go", () => {
    const base = {
      question: "Q",
      status: "open",
      answers: [],
      maxScore: 10,
      collectionUrl: "https://t/c",
      reviewUrl: null,
      expiresAt: "x",
      who: null,
    };
    const with_ = (course: Parameters<typeof instructorPage>[0]["course"]) => instructorPage({ ...base, course });
    const listed = with_({
      notAnswered: [
        { userId: "u1", name: "Hal", answered: false, answerId: null },
        { userId: "u2", name: null, answered: false, answerId: null },
      ],
      rosterError: null,
      passback: "on",
      gradebook: { queued: 1, posted: 2, failed: 3 },
    });
    expect(listed).toContain("Not answered yet (2)");
    // a learner the platform sends no name for is named by their id
    expect(listed).toContain("<li>Hal</li><li>u2</li>");
    expect(listed).toContain("Gradebook: 2 posted, 1 waiting, 3 refused.");
    const failed = with_({
      notAnswered: null,
      rosterError: "the platform's roster answered 500",
      passback: "no-score-scope",
      gradebook: { queued: 0, posted: 0, failed: 0 },
    });
    expect(failed).toContain("could not be read: the platform&#39;s roster answered 500.");
    expect(failed).toContain("did not allow this tool to post scores");
    const plain = with_({ notAnswered: null, rosterError: null, passback: "off", gradebook: { queued: 0, posted: 0, failed: 0 } });
    expect(plain).not.toContain("gradebook");
    expect(plain).not.toContain("roster");
    expect(with_({ notAnswered: [], rosterError: null, passback: "off", gradebook: { queued: 0, posted: 0, failed: 0 } })).toContain(
      "Every learner of the course has answered.",
    );
  });
});
