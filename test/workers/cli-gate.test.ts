// `knockout-judge eval --fail-under` against the real service: the eval command with the Worker's fetch,
// on questions graded by the test judge server (its scores are the answers' q=N, so the report's figures
// are known). workerd has no node:util parseArgs, so the options are built here as parseCli would
// (test/unit/cli covers parsing, and compare, which needs no service, end to end).
import { describe, expect, it } from "vitest";
import { runEval } from "../../src/cli/eval";
import { parseThresholds } from "../../src/cli/gate";
import { gateIdle, newKey, uniqueTag } from "./helpers";
import { cliIo, cliOptions } from "./cli-io";

/**
 * Two questions whose top answer the humans graded a point above the judge: every other grade agrees. The
 * test judge favours the first answer shown by 0.5, so a debiased knockout scores each answer q + 0.25,
 * which is the grade q + 0.5 on the half-point scale.
 */
function dataset(tag: string): string {
  return [1, 2]
    .map((n) =>
      JSON.stringify({
        question_id: `q${n}`,
        question: `What is a stack? (${n}) [tag:${tag}]`,
        reference: "LIFO",
        max_score: 10,
        min_score: 0,
        answers: [2, 4, 6, 8].map((q) => ({
          id: `q${n}-${q}`,
          text: `Answer q=${q}. The stack is LIFO.`,
          human_score: q === 8 ? 9.5 : q + 0.5,
        })),
      }),
    )
    .join("\n");
}

/** `eval gate-data.jsonl --fail-under FLOORS --format junit --out run.json --bootstrap 0` as parseCli reads it. */
function options(key: string, floors: string) {
  const thresholds = parseThresholds("--fail-under", floors, "floor");
  if (!thresholds.ok) throw new Error("bad test options");
  return cliOptions(key, "gate-data.jsonl", { failUnder: thresholds.thresholds, format: "junit" });
}

describe("knockout-judge eval --fail-under", () => {
  it("grades, writes JUnit with one case per floor, and exits 1 naming the metric, its value and its floor", async () => {
    const key = await newKey("cli-gate");
    const files: Record<string, string> = { "gate-data.jsonl": dataset(uniqueTag("cli-gate")) };
    const { cli, printed } = cliIo(files);
    const code = await runEval(options(key, "pearson=0.9,exact=1"), cli);
    expect(printed.err.trim().split("\n").at(-1)).toBe(
      "knockout-judge: gate failed: exact 0.75 is below 1 on gate-data, knockout (debiased)",
    );
    expect(code).toBe(1);
    // the XML alone on standard output; the report went to standard error
    expect(printed.out).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="knockout-judge" tests="2" failures="1">\n/);
    expect(printed.out).toContain(`<testcase classname="knockout-judge.gate-data" name="knockout (debiased): pearson &gt;= 0.9">`);
    expect(printed.out).toMatch(/<failure message="exact 0.75 is below 1 on gate-data, knockout \(debiased\)" type="threshold">/);
    expect(printed.err).toContain("quadratic weighted kappa");
    // the --out file carries the reports compare reads, and the floors the run was held to
    const out = JSON.parse(files["run.json"]);
    expect(out.runs["knockout (debiased)"].report.humanAgreement).toMatchObject({ n: 8, exact: 0.75 });
    expect(out.settings.failUnder).toEqual(["pearson=0.9", "exact=1"]);

    // floors it meets: exit 0
    const passing = cliIo(files);
    expect(await runEval({ ...options(key, "pearson=0.9,exact=0.75"), format: "table", out: null }, passing.cli)).toBe(0);
    expect(passing.printed.out).toContain("Agreement with the human scores as grades on the scale: exact 0.750");
    await gateIdle();
  });
});
