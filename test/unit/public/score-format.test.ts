import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
// @ts-expect-error plain JS module of the web front
import { formatScore } from "../../../public/js/score-format.js";

const pages = path.join(import.meta.dirname, "../../../public/js");
const source = (file: string) => fs.readFileSync(path.join(pages, file), "utf8");

describe("scores as the pages print them", () => {
  it("rounds to two decimals and leaves no trailing zero or dot", () => {
    // 0.998 read "1." on a receipt ("1. of 5 points")
    expect(formatScore(0.998)).toBe("1");
    expect(formatScore(1.004)).toBe("1");
    expect(formatScore(2.5)).toBe("2.5");
    expect(formatScore(3.25)).toBe("3.25");
    expect(formatScore(0)).toBe("0");
    expect(formatScore(9.999)).toBe("10");
    expect(formatScore(-0.001)).toBe("0");
    expect(formatScore(null)).toBe("–");
    expect(formatScore(undefined, "")).toBe("");
  });

  it("is the only score formatter: every page imports it, none rounds scores its own way", () => {
    for (const page of ["receipt.js", "results.js", "bracket.js", "review.js"])
      expect(source(page), page).toContain('import { formatScore } from "./score-format.js"');
    const ownCopies = fs.readdirSync(pages).filter((f) => f !== "score-format.js" && /toFixed\(2\)/.test(source(f)));
    expect(ownCopies).toEqual([]);
  });
});
