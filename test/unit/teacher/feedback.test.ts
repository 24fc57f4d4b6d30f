import { describe, expect, it } from "vitest";
import { currentFeedback, feedbackHistory, withFeedback } from "../../../src/teacher/feedback";

const judge = [
  { answerId: "a", text: "Judge on a.", error: null, at: 1_000 },
  { answerId: "b", text: null, error: "the feedback could not be written: judge answered 400", at: 2_000 },
];
const edits = [
  { answerId: "a", text: "Teacher on a, first.", editedAt: 3_000 },
  { answerId: "a", text: "Teacher on a, second.", editedAt: 4_000 },
];

describe("the feedback a student reads", () => {
  it("is the teacher's last edit, else the judge's, else null with why the judge wrote none", () => {
    const current = currentFeedback(judge, edits);
    expect(current.get("a")).toEqual({
      feedback: { text: "Teacher on a, second.", from: "teacher", editedAt: new Date(4_000).toISOString() },
    });
    expect(current.get("b")).toEqual({ feedback: null, feedbackError: judge[1].error });
    expect(currentFeedback(judge, []).get("a")).toEqual({
      feedback: { text: "Judge on a.", from: "judge", editedAt: new Date(1_000).toISOString() },
    });
    // a teacher's edit replaces the error too
    expect(currentFeedback(judge, [{ answerId: "b", text: "Fine.", editedAt: 5 }]).get("b")).toEqual({
      feedback: { text: "Fine.", from: "teacher", editedAt: new Date(5).toISOString() },
    });
  });

  it("gives every answer the field when feedback was asked for, and leaves answers as they were otherwise", () => {
    const answers = [{ id: "a" }, { id: "b" }, { id: "c" }];
    const shown = withFeedback(answers, "judge", currentFeedback(judge, []));
    expect(shown.map((a) => a.feedback?.text ?? null)).toEqual(["Judge on a.", null, null]);
    expect(shown[1].feedbackError).toMatch(/400/);
    expect(shown[2]).toEqual({ id: "c", feedback: null });
    expect(withFeedback(answers, "none", new Map())).toEqual(answers);
  });

  it("keeps its history oldest first: the judge's, then each edit", () => {
    expect(feedbackHistory(judge[0], edits).map((h) => [h.from, h.text])).toEqual([
      ["judge", "Judge on a."],
      ["teacher", "Teacher on a, first."],
      ["teacher", "Teacher on a, second."],
    ]);
    expect(feedbackHistory(judge[1], [])).toEqual([]);
  });
});
