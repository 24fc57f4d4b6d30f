import { describe, expect, it } from "vitest";
import { deadlineProblem } from "../../../src/contract";

// issue 11, defect 7: "closing":{"deadline":"2262-06-01T00:00:00Z"} answered 503 (the alarm takes no date after 2189)
describe("a collection's closing deadline", () => {
  const now = Date.parse("2026-03-01T00:00:00Z");
  const day = 86_400_000;

  it("is in the future and at most 365 days ahead", () => {
    expect(deadlineProblem(now + 1, now)).toBeNull();
    expect(deadlineProblem(now + 365 * day, now)).toBeNull();
    expect(deadlineProblem(now, now)).toBe("must be in the future");
    expect(deadlineProblem(now - day, now)).toBe("must be in the future");
    expect(deadlineProblem(now + 365 * day + 1, now)).toBe("must be at most 365 days ahead");
    expect(deadlineProblem(Date.parse("2262-06-01T00:00:00Z"), now)).toBe("must be at most 365 days ahead");
  });
});
