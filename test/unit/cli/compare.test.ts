import { describe, expect, it } from "vitest";
import { pairRuns, runsOf } from "../../../src/cli/compare-runs";
import type { CliIo } from "../../../src/cli/io";
import { main } from "../../../src/cli/main";
import { buildReport } from "../../../src/metrics/report";

/** A report from items whose judge scores are the human scores plus `noise` on every other answer. */
const report = (noise: number) =>
  buildReport(
    Array.from({ length: 12 }, (_, i) => ({
      questionId: `q${i % 3}`,
      answerId: `a${i}`,
      humanScore: i % 6,
      judgeScore: (i % 6) + (i % 2 ? noise : 0),
    })),
    { bootstrap: false, scale: { maxScore: 5, step: 0.5 } },
  );
const outFile = (runs: Record<string, number>) =>
  JSON.stringify({
    dataset: "../shared/datasets/mohler.jsonl",
    runs: Object.fromEntries(Object.entries(runs).map(([l, n]) => [l, { report: report(n) }])),
  });

/** The command with its files in memory and what it prints captured. */
function io(files: Record<string, string>, env: Record<string, string> = {}) {
  const printed = { out: "", err: "", appended: {} as Record<string, string> };
  const cli: CliIo = {
    out: (t) => void (printed.out += t),
    err: { write: (t: string) => void (printed.err += t) },
    env,
    readFile: (p) => {
      if (!(p in files)) throw new Error(`ENOENT: ${p}`);
      return files[p];
    },
    writeFile: (p, t) => void (files[p] = t),
    appendFile: (p, t) => void (printed.appended[p] = (printed.appended[p] ?? "") + t),
  };
  return { cli, printed };
}

describe("compare: reading and matching runs", () => {
  it("reads one dataset's and several datasets' --out files; datasets by file name", () => {
    expect(runsOf(JSON.parse(outFile({ knockout: 0 }))).map((r) => [r.dataset, r.label])).toEqual([["mohler", "knockout"]]);
    const several = {
      datasets: ["a/x.jsonl", "b/y.jsonl"],
      runs: { "a/x.jsonl": { k: { report: report(0) } }, "b/y.jsonl": { k: { report: report(1) } } },
    };
    expect(runsOf(several).map((r) => [r.dataset, r.label])).toEqual([
      ["x", "k"],
      ["y", "k"],
    ]);
    expect(() => runsOf({ hello: 1 })).toThrow("not a knockout-judge eval --out file (it has no runs)");
    expect(() => runsOf({ dataset: "d", runs: { k: {} } })).toThrow("dataset d, k: no report");
  });

  it("matches by dataset and method; one run a side matches whatever the labels; a lost run is missing", () => {
    const r = (dataset: string, label: string) => ({ dataset, label, report: report(0) });
    const one = pairRuns([r("m", "knockout")], [r("m", "knockout (logprobs)")]);
    expect(one.pairs.map((p) => [p.baseline.label, p.candidate.label])).toEqual([["knockout", "knockout (logprobs)"]]);
    const many = pairRuns([r("m", "a"), r("m", "b"), r("z", "a")], [r("m", "b"), r("m", "c"), r("m", "a")]);
    expect(many.pairs.map((p) => [p.baseline.label, p.candidate.label])).toEqual([
      ["a", "a"],
      ["b", "b"],
    ]);
    expect(many.missing.map((m) => [m.dataset, m.label])).toEqual([["z", "a"]]);
    expect(many.unmatched.map((m) => m.label)).toEqual(["c"]);
  });
});

describe("knockout-judge compare", () => {
  const files = () => ({
    "base.json": outFile({ knockout: 0.2 }),
    "worse.json": outFile({ knockout: 2 }),
    "same.json": outFile({ knockout: 0.2 }),
  });

  it("exits 1 with a one-line reason naming the metric, its value and the allowed drop", async () => {
    const { cli, printed } = io(files());
    expect(await main(["compare", "base.json", "worse.json", "--fail-if-worse", "0.02"], cli)).toBe(1);
    const reason = printed.err.trim().split("\n").at(-1)!;
    expect(reason).toMatch(
      /^knockout-judge: gate failed: pearson 0\.\d+ is 0\.\d+ below the baseline's 0\.\d+ on mohler, knockout \(at most 0\.02 allowed\)$/,
    );
    expect(printed.out).toMatch(/mohler, knockout\n {2}pearson\s+0\.\d{3} ->\s+0\.\d{3}\s+-0\.\d{3}\s+\(drop at most 0\.02\)\s+FAILED/);
  });

  it("exits 0 when nothing fell; without --fail-if-worse it only shows every figure", async () => {
    const same = io(files());
    expect(await main(["compare", "base.json", "same.json", "--fail-if-worse", "pearson=0.02,qwk=0.05"], same.cli)).toBe(0);
    expect(same.printed.out).toMatch(/qwk .* ok/);
    const show = io(files());
    expect(await main(["compare", "base.json", "worse.json"], show.cli)).toBe(0);
    expect(show.printed.out).toMatch(/pearson .*-0\.\d{3}\n/);
  });

  it("--format junit writes the XML on standard output, the table on standard error", async () => {
    const { cli, printed } = io(files());
    expect(await main(["compare", "base.json", "worse.json", "--fail-if-worse", "0.02", "--format", "junit"], cli)).toBe(1);
    expect(printed.out).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="knockout-judge" tests="1" failures="1">/);
    expect(printed.out).toContain("<failure ");
    expect(printed.err).toContain("mohler, knockout\n");
  });

  it("--format github appends the summary to $GITHUB_STEP_SUMMARY when set, else writes it on standard output", async () => {
    const { cli, printed } = io(files(), { GITHUB_STEP_SUMMARY: "/summary.md" });
    expect(await main(["compare", "base.json", "same.json", "--fail-if-worse", "0.02", "--format", "github"], cli)).toBe(0);
    expect(printed.appended["/summary.md"]).toMatch(/^### knockout-judge compare: same\.json against base\.json ✅ passed\n/);
    expect(printed.out).toBe("");
    expect(printed.err).toContain("mohler, knockout");
    const plain = io(files());
    await main(["compare", "base.json", "same.json", "--format", "github"], plain.cli);
    expect(plain.printed.out).toContain("| Dataset | Method | Metric | Baseline | Value |");
  });

  it("usage errors exit 2 with the reason; an unreadable file exits 1; a run the candidate lost fails", async () => {
    const run = async (argv: string[], more: Record<string, string> = {}) => {
      const { cli, printed } = io({ ...files(), ...more });
      return [await main(["compare", ...argv], cli), printed.err.split("\n")[0]];
    };
    expect(await run(["base.json", "worse.json", "--fail-if-worse", "pearsn=0.1"])).toEqual([
      2,
      `knockout-judge compare: --fail-if-worse: unknown metric "pearsn"; one of pearson, spearman, kendall, qwk, exact, accuracy`,
    ]);
    expect(await run(["base.json", "worse.json", "--fail-if-worse", "3"])).toEqual([
      2,
      "knockout-judge compare: --fail-if-worse: pearson=3 is out of range [0, 2]",
    ]);
    expect(await run(["base.json"])).toEqual([2, "knockout-judge compare: give two files: BASELINE.json CANDIDATE.json"]);
    expect(await run(["base.json", "nope.json"])).toEqual([1, "knockout-judge compare: nope.json: ENOENT: nope.json"]);
    const lost = await run(["base.json", "other.json", "--fail-if-worse", "0.02"], {
      "other.json": JSON.stringify({ dataset: "zhen.jsonl", runs: { knockout: { report: report(0) } } }),
    });
    expect(lost[0]).toBe(1);
  });
});
