// `knockout-judge eval --panel` against the real service on a pool of three judges (issue 30 item 3):
// the report's panel section, pooled over the run, from what the service recorded. workerd has no
// node:util parseArgs, so the options are built here as parseCli would (test/unit/cli covers parsing).
import { describe, expect, it } from "vitest";
import { runEval } from "../../src/cli/eval";
import { newKey, uniqueTag } from "../workers/helpers";
import { cliIo, cliOptions } from "../workers/cli-io";

/** Two questions of four answers each, graded by the humans as the answers' quality q. */
function dataset(tag: string): string {
  return [1, 2]
    .map((n) =>
      JSON.stringify({
        question_id: `q${n}`,
        question: `What is a queue? (${n}) [tag:${tag}]`,
        max_score: 10,
        min_score: 0,
        // the same answer ids in both questions: the report tells them apart by question
        answers: [2, 4, 6, 8].map((q) => ({ id: `s${q}`, text: `Answer q=${q}. The queue is FIFO.`, human_score: q })),
      }),
    )
    .join("\n");
}

describe("knockout-judge eval --panel", () => {
  // test/panel/panel.test.ts, which may run at the same time, takes judge-b and judge-c down for a while:
  // a match of judge-c's may then move to judge-a, so only what holds either way is checked here
  it('"cycle": prints each judge against the panel and its own diagnostics, pooled over the run, as --out has them', async () => {
    const key = await newKey(uniqueTag("cli-panel"));
    const files: Record<string, string> = { "panel-data.jsonl": dataset(uniqueTag("cli-panel")) };
    const { cli, printed } = cliIo(files);
    const code = await runEval(
      cliOptions(key, "panel-data.jsonl", { examinee: "none", panel: { models: ["judge-a", "judge-c"], mode: "cycle" } }),
      cli,
    );
    expect(printed.err).not.toContain("failed");
    expect(code).toBe(0);
    const panel = JSON.parse(files["run.json"]).runs["knockout (debiased)"].panel;
    expect(panel.mode).toBe("cycle");
    expect(panel.questions).toBe(2);
    // a knockout of four answers plays three matches, each of one judge (judge-a takes 0 and 2, judge-c 1, while up)
    expect(panel.judges.map((j: { model: string }) => j.model)).toEqual(["judge-a", "judge-c"]);
    expect(panel.judges.reduce((s: number, j: { matches: number }) => s + j.matches, 0)).toBe(6);
    expect(panel.judges[0].matches).toBeGreaterThanOrEqual(4);
    for (const j of panel.judges) {
      expect(j.absent).toBeUndefined();
      // both orders of each of its matches, and nothing else
      expect(j.judgeDiagnostics.firstPositionWins.of).toBe(2 * j.matches);
    }
    const lines = printed.out.split("\n");
    const head = lines.indexOf('Panel of judges ("cycle": each match to the next judge in turn), pooled over 2 questions');
    expect(head).toBeGreaterThan(0);
    expect(lines[head + 1].trim().split(/\s{2,}/)).toEqual(["judge", "matches", "answers", "Pearson vs panel", "mean abs diff"]);
    for (const [i, j] of panel.judges.entries()) {
      const fixed = (x: number | null) => (x === null ? "–" : x.toFixed(3));
      expect(lines[head + 2 + i].trim().split(/\s+/)).toEqual([
        j.model,
        String(j.matches),
        String(j.answers),
        fixed(j.pearson),
        fixed(j.meanAbsDiff),
      ]);
      const own = lines.indexOf(`Judge diagnostics of ${j.model} (the matches it judged)`);
      expect(own).toBeGreaterThan(head);
      expect(lines[own + 1]).toContain(`(${j.judgeDiagnostics.firstPositionWins.count} of ${2 * j.matches})`);
    }
  });
});
