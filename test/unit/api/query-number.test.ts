import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decimalInteger } from "../../../src/api/query-number";

describe("a number in a query string", () => {
  it("is read from decimal digits only", () => {
    expect(decimalInteger("16")).toBe(16);
    expect(decimalInteger("0")).toBe(0);
    expect(decimalInteger("007")).toBe(7);
    // each of these is a number to Number(), and none is what a person reads as one
    for (const text of ["0x10", "0o20", "0b10000", "1e1", " 5", "5 ", "+5", "-5", "1.0", "", "Infinity", "1_000"]) {
      expect(decimalInteger(text), JSON.stringify(text)).toBeNull();
    }
    expect(decimalInteger("9".repeat(16))).toBeNull();
  });

  it("gives back every whole number it is written from", () => {
    fc.assert(fc.property(fc.nat(), (n) => decimalInteger(String(n)) === n));
  });
});
