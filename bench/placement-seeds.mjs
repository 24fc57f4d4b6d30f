// `npm run bench -- --only placement [--placement-seeds 3]`: issue 26 item 3's placements of the extra
// calls over several draws of judge-sim's noise, the evidence for the service's default. One draw moves
// a dataset's Pearson by about 0.01, as much as the placements differ (the quality bench's placement
// rows are seed 1). For each of the review bench's two settings, each dataset and each seed s, judge-sim
// runs with --seed s and the knockout (debiased, expected scores) seeded 1000 (s - 1) + 1 + i on
// question i, with N/2, N and 2N extra calls placed each way of src/core/types.ts EXTRA_PLACEMENTS.
// Printed per placement and budget: the mean of the seeds' pooled Pearson with the human grades, each
// seed's, and the share of first-round losers that got an extra match; then how many budgets each
// placement won. No service is started; the figures are judge-sim's, not a real judge's.
import { benchDatasets, gradableQuestions, judgeOver, startSim } from "./quality.mjs";
import { readQuestions } from "./lib.mjs";
import { REVIEW_SETTINGS } from "./review-seeds.mjs";
import { BUDGETS } from "./placement.mjs";
import { human as humanGrade } from "./review.mjs";

const { runQuestion } = await import("../src/core/quality.ts");
const { pearson } = await import("../src/metrics/correlation.ts");
const { firstRoundLosers } = await import("../src/core/placement-quality.ts");
const { EXTRA_PLACEMENTS, DEFAULT_EXTRA_PLACEMENT } = await import("../src/core/types.ts");

/** Pooled Pearson of one placement and budget over the questions, and its first-round losers with an extra match. */
async function placementRun(questions, judge, placement, extraCalls, seed) {
  const method = { label: placement, method: "knockout", debias: true, scoreFrom: "logprobs", extraCalls, extraPlacement: placement };
  const judged = [];
  const human = [];
  let losers = 0;
  let losersWithExtra = 0;
  for (const [i, q] of questions.entries()) {
    const run = await runQuestion(q, method, judge, 1000 * (seed - 1) + 1 + i);
    for (const a of q.answers) {
      if (!run.scores.has(a.id)) continue;
      judged.push(run.scores.get(a.id) / q.maxScore);
      human.push(humanGrade(q, a) / q.maxScore);
    }
    const extraPlayers = new Set(run.matches.filter((m) => m.extra).flatMap((m) => [m.a, m.b]));
    for (const loser of firstRoundLosers(run.matches)) {
      losers++;
      if (extraPlayers.has(loser)) losersWithExtra++;
    }
  }
  return { pearson: pearson(judged, human), losersWithExtra: losersWithExtra / losers };
}

export async function placementSeeds({ shared, flag, port }) {
  const seeds = Number(flag("placement-seeds", 3));
  if (!Number.isInteger(seeds) || seeds < 1)
    throw new Error(`--placement-seeds must be a whole number from 1 (got ${flag("placement-seeds")})`);
  const wins = new Map(EXTRA_PLACEMENTS.map((p) => [p, 0]));
  let budgets = 0;
  for (const setting of REVIEW_SETTINGS) {
    for (const set of benchDatasets(shared, flag)) {
      const questions = gradableQuestions(readQuestions(set.file).slice(0, set.limit), set.translation);
      const cells = new Map();
      for (let seed = 1; seed <= seeds; seed++) {
        const sim = await startSim(shared.sim, set.file, port, { ...setting.noise, seed });
        try {
          const judge = judgeOver(sim.url, []);
          for (const placement of EXTRA_PLACEMENTS)
            for (const [budget, extraCalls] of BUDGETS) {
              const key = `${placement}\u0000${budget}`;
              cells.set(key, [...(cells.get(key) ?? []), await placementRun(questions, judge, placement, extraCalls, seed)]);
            }
        } finally {
          sim.stop();
        }
      }
      const mean = (list, f) => list.reduce((s, c) => s + f(c), 0) / list.length;
      console.log(`\n  placement, ${set.name}, ${setting.label}; ${questions.length} questions, mean of ${seeds} seeds`);
      console.log("  | placement | extra calls | Pearson | per seed | first-round losers with an extra match |");
      console.log("  |---|---|---|---|---|");
      for (const placement of EXTRA_PLACEMENTS)
        for (const [budget] of BUDGETS) {
          const list = cells.get(`${placement}\u0000${budget}`);
          const label = placement === DEFAULT_EXTRA_PLACEMENT ? `${placement} (default)` : placement;
          console.log(
            `  | ${label} | ${budget} | ${mean(list, (c) => c.pearson).toFixed(4)} | ${list.map((c) => c.pearson.toFixed(4)).join(", ")} | ${(100 * mean(list, (c) => c.losersWithExtra)).toFixed(1)}% |`,
          );
        }
      for (const [budget] of BUDGETS) {
        const best = EXTRA_PLACEMENTS.reduce((b, p) =>
          mean(cells.get(`${p}\u0000${budget}`), (c) => c.pearson) > mean(cells.get(`${b}\u0000${budget}`), (c) => c.pearson) ? p : b,
        );
        wins.set(best, wins.get(best) + 1);
        budgets++;
      }
    }
  }
  console.log(`\n  higher mean Pearson, of ${budgets} settings x datasets x budgets: ${[...wins].map(([p, n]) => `${p} ${n}`).join(", ")}`);
}
