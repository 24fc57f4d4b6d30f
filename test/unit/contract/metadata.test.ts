import { describe, expect, it } from "vitest";
import { nestingDepth } from "../../../src/contract/metadata";

describe("nestingDepth", () => {
  it("counts objects and arrays, not scalars", () => {
    expect(nestingDepth(3, 10)).toBe(0);
    expect(nestingDepth(null, 10)).toBe(0);
    expect(nestingDepth({}, 10)).toBe(1);
    expect(nestingDepth({ a: 1, b: "x" }, 10)).toBe(1);
    expect(nestingDepth({ a: [1, { b: [] }] }, 10)).toBe(4);
    expect(nestingDepth([[], [[[]]], {}], 10)).toBe(4);
  });

  it("stops one level past its limit, however deep the value goes", () => {
    let deep: unknown = {};
    for (let i = 1; i < 100_000; i++) deep = { a: deep };
    expect(nestingDepth(deep, 32)).toBe(33);
    expect(nestingDepth(deep, 200_000)).toBe(100_000);
  });
});
