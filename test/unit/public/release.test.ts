import { describe, expect, it } from "vitest";
// @ts-expect-error plain JS module of the web front
import { allToRelease, releaseCount, releaseLine, releaseWarning, reviewedToRelease, shownBy } from "../../../public/js/release.js";

type A = {
  id: string;
  review: null | { reasons: string[] };
  teacherScore: number | null;
  finalScore: number | null;
  finalFrom: string | null;
  releasedAt: string | null;
};
const answer = (id: string, over: Partial<A> = {}): A => ({
  id,
  review: null,
  teacherScore: null,
  finalScore: 5,
  finalFrom: "judge",
  releasedAt: null,
  ...over,
});
const AT = "2026-11-24T16:20:00.000Z";

// graded and released; graded, not released; flagged and ungraded (twice); flagged but graded; plain
const answers = [
  answer("a", { teacherScore: 7, finalScore: 7, finalFrom: "teacher", releasedAt: AT }),
  answer("b", { teacherScore: 4, finalScore: 4, finalFrom: "teacher" }),
  answer("c", { review: { reasons: ["tie"] } }),
  answer("d", { review: { reasons: ["single-judgment", "tie"] }, finalFrom: "calibrated" }),
  answer("e", { review: { reasons: ["tie"] }, teacherScore: 0, finalScore: 0, finalFrom: "teacher" }),
  answer("f"),
];
const ids = (list: A[]) => list.map((a) => a.id);

describe("the review page's filter", () => {
  it("reviewed is graded by the teacher (a grade of 0 counts); not reviewed is the rest; all is all", () => {
    expect(ids(answers.filter((a) => shownBy("reviewed", a)))).toEqual(["a", "b", "e"]);
    expect(ids(answers.filter((a) => shownBy("not-reviewed", a)))).toEqual(["c", "d", "f"]);
    expect(ids(answers.filter((a) => shownBy("all", a)))).toEqual(ids(answers));
  });
});

describe("what the release buttons pick", () => {
  it("“Release every reviewed answer”: the graded answers not yet released", () => {
    expect(reviewedToRelease(answers)).toEqual(["b", "e"]);
    expect(reviewedToRelease([answer("x"), answer("y", { review: { reasons: ["tie"] } })])).toEqual([]);
  });

  it("“Release all”: every answer not yet released", () => {
    expect(allToRelease(answers)).toEqual(["b", "c", "d", "e", "f"]);
    expect(allToRelease([answer("x", { releasedAt: AT })])).toEqual([]);
  });
});

describe("the count of what is released", () => {
  it("says how many of the evaluation's answers students can see", () => {
    expect(releaseCount(answers)).toBe("1 of 6 released");
    expect(releaseCount(answers.map((a) => ({ ...a, releasedAt: AT })))).toBe("6 of 6 released");
    expect(releaseCount([])).toBe("0 of 0 released");
  });
});

describe("the warning before a release", () => {
  it("counts the answers to release that have review reasons and no teacher grade", () => {
    expect(releaseWarning(answers, allToRelease(answers))).toBe(
      "2 answers you are releasing still have review reasons and no grade of yours: their students see the judge's or the calibrated grade. Release anyway?",
    );
    expect(releaseWarning(answers, ["c"])).toBe(
      "1 answer you are releasing still has review reasons and no grade of yours: its student sees the judge's or the calibrated grade. Release anyway?",
    );
  });

  it("says nothing for reviewed answers, unflagged ones, or flagged ones already released", () => {
    expect(releaseWarning(answers, reviewedToRelease(answers))).toBeNull();
    expect(releaseWarning(answers, ["f"])).toBeNull();
    expect(releaseWarning([answer("c", { review: { reasons: ["tie"] }, releasedAt: AT })], ["c"])).toBeNull();
    // a review object without reasons is no flag
    expect(releaseWarning([answer("g", { review: { reasons: [] } })], ["g"])).toBeNull();
  });
});

describe("an answer's release line", () => {
  it("gives the final grade, where it came from, and the release", () => {
    expect(releaseLine(answers[1], 10)).toBe("Final grade 4 of 10 (your grade). Not released.");
    expect(releaseLine(answers[3], 10)).toBe("Final grade 5 of 10 (calibrated). Not released.");
    expect(releaseLine(answer("h", { finalScore: 2.5 }), 5)).toBe("Final grade 2.5 of 5 (the judge's). Not released.");
    expect(releaseLine(answers[0], 10)).toBe(`Final grade 7 of 10 (your grade). Released ${new Date(AT).toLocaleString()}.`);
    expect(releaseLine(answer("n", { finalScore: null, finalFrom: null }), 10)).toBe("Final grade – of 10. Not released.");
  });
});
