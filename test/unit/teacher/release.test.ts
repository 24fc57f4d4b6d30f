import { describe, expect, it } from "vitest";
import { planRelease, releasedAt, updatedAfterRelease } from "../../../src/teacher/release";

describe("releasedAt", () => {
  it("follows the latest release row, whatever the mode", () => {
    expect(releasedAt({ action: "released", at: 5 }, "manual", 1)).toBe(5);
    expect(releasedAt({ action: "withdrawn", at: 6 }, "auto", 1)).toBeNull();
    expect(releasedAt({ action: "released", at: 7 }, "auto", 1)).toBe(7);
  });

  it("without a row: released at completion when automatic, not at all when manual", () => {
    expect(releasedAt(undefined, "auto", 3)).toBe(3);
    expect(releasedAt(undefined, "auto", null)).toBeNull();
    expect(releasedAt(undefined, "manual", 3)).toBeNull();
  });
});

describe("planRelease", () => {
  const answers = [
    { id: "a", releasedAt: null },
    { id: "b", releasedAt: 10 },
    { id: "c", releasedAt: null },
  ];

  it("releases what is not released yet, in the evaluation's order; all when none are named", () => {
    expect(planRelease("release", undefined, answers)).toEqual({ kind: "change", ids: ["a", "c"] });
    expect(planRelease("release", ["c", "b"], answers)).toEqual({ kind: "change", ids: ["c"] });
    expect(planRelease("release", ["b"], answers)).toEqual({ kind: "change", ids: [] });
  });

  it("withdraws only what is released", () => {
    expect(planRelease("withdraw", undefined, answers)).toEqual({ kind: "change", ids: ["b"] });
    expect(planRelease("withdraw", ["a"], answers)).toEqual({ kind: "change", ids: [] });
  });

  it("names every unknown id once and changes nothing", () => {
    expect(planRelease("release", ["a", "x", "y", "x"], answers)).toEqual({ kind: "unknown", ids: ["x", "y"] });
  });
});

describe("updatedAfterRelease", () => {
  it("is the grade's last change when it came after the release", () => {
    expect(updatedAfterRelease(10, 12)).toBe(12);
    expect(updatedAfterRelease(10, 9)).toBeNull();
    expect(updatedAfterRelease(10, null)).toBeNull();
    expect(updatedAfterRelease(null, 12)).toBeNull();
  });
});
