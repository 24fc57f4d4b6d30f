// The quality bench's placement rows (issue 26 item 3): where the knockout's extra calls go, and what
// it does to the first-round losers. For each placement of src/core/types.ts EXTRA_PLACEMENTS and each
// budget (N/2, N, 2N extra calls), the knockout (debiased, expected scores) grades every question; the
// judge's long-run mean of each answer is its round-robin score (debiased, expected scores: every
// other answer, both orders, which are all the prompts judge-sim can show it in, its noise being a
// function of the prompt). Printed per row: Pearson with the human grades, how many first-round
// losers got an extra match, the share of their 95% intervals that cover the long-run mean (target:
// 90% at N), their mean shortfall against it, and the coverage over all answers.
const { runQuestion } = await import("../src/core/quality.ts");
const { placementMeasures } = await import("../src/core/placement-quality.ts");
const { EXTRA_PLACEMENTS, DEFAULT_EXTRA_PLACEMENT } = await import("../src/core/types.ts");
const { scoreStep } = await import("../src/judge/expected.ts");

const LONG_RUN = { label: "round-robin, logprobs", method: "round-robin", debias: true, scoreFrom: "logprobs" };
/** The extra-call budgets every placement is measured at. */
export const BUDGETS = [
  ["N/2", (n) => Math.floor(n / 2)],
  ["N", (n) => n],
  ["2N", (n) => 2 * n],
];

/** Runs every placement at every budget on `questions` and prints its rows; returns them. */
export async function placementRows(questions, judge, name, setting, print = console.log) {
  const longRuns = [];
  for (const [i, q] of questions.entries()) longRuns.push((await runQuestion(q, LONG_RUN, judge, 1 + i)).scores);
  print(`\n  extra-call placement (${name}, ${setting}; knockout, logprobs; long-run mean: the round-robin's score, logprobs)`);
  print(
    "  | placement | extra calls | Pearson | first-round losers with an extra match | their intervals covering the long-run mean | their score minus it (share of scale) | all answers covered |",
  );
  print("  |---|---|---|---|---|---|---|");
  const out = [];
  for (const placement of EXTRA_PLACEMENTS) {
    for (const [budget, extraCalls] of BUDGETS) {
      const method = { label: placement, method: "knockout", debias: true, scoreFrom: "logprobs", extraCalls, extraPlacement: placement };
      const runs = [];
      for (const [i, q] of questions.entries()) {
        const run = await runQuestion(q, method, judge, 1 + i);
        runs.push({ question: q, matches: run.matches, scores: run.scores, longRun: longRuns[i], step: scoreStep(q.input.template) });
      }
      const m = placementMeasures(runs);
      const pct = (x) => `${(100 * x).toFixed(1)}%`;
      const label = placement === DEFAULT_EXTRA_PLACEMENT ? `${placement} (default)` : placement;
      print(
        `  | ${label} | ${budget} | ${m.pearson === null ? "n/a" : m.pearson.toFixed(4)} | ${m.losersWithExtra} of ${m.firstRoundLosers} | ${pct(m.losersCovered)} | ${m.losersShortfall.toFixed(4)} | ${pct(m.allCovered)} |`,
      );
      out.push({ placement, budget, ...m });
    }
  }
  return out;
}
