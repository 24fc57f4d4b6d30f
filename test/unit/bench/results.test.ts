import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain ESM script of the bench, without types
import { mergeSections, readSections } from "../../../bench/results.mjs";

describe("the bench's results file", () => {
  it("replaces the sections of the targets just run and keeps the others, in their order", () => {
    const first = mergeSections(
      "",
      new Map([
        ["throughput", "## throughput\n\nratio 1.03\n"],
        ["latency", "## latency\n\nratio 1.09\n"],
      ]),
    );
    const second = mergeSections(first, new Map([["throughput", "## throughput\n\nratio 1.01\n"]]));
    const sections = readSections(second);
    expect([...sections.keys()]).toEqual(["throughput", "latency"]);
    expect(sections.get("throughput")).toContain("ratio 1.01");
    expect(sections.get("latency")).toContain("ratio 1.09");
    expect(second).not.toContain("ratio 1.03");
  });

  it("adds a target run for the first time after the others, and says where the figures come from", () => {
    const merged = mergeSections(mergeSections("", new Map([["a", "A\n"]])), new Map([["pollers", "P\n"]]));
    expect([...readSections(merged).keys()]).toEqual(["a", "pollers"]);
    expect(merged).toMatch(/^# Bench results\n/);
    expect(merged).toContain("judge-sim");
  });
});
