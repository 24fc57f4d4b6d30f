// `knockout-judge compare`'s reading of two `eval --out` files: their runs, and which candidate run
// answers which baseline run. Pure.
import type { EvaluationReport } from "../metrics/report.ts";
import { datasetName } from "./dataset.ts";
import type { GateRun } from "./gate.ts";

/**
 * The runs of an `eval --out` file: one dataset's (`{dataset, runs: {label: {report}}}`) or several's
 * (`{datasets, runs: {dataset: {label: {report}}}}`). Datasets go by their file's name, not its path, so a
 * baseline written in another checkout still matches.
 */
export function runsOf(json: unknown): GateRun[] {
  const file = json as { dataset?: unknown; datasets?: unknown; runs?: unknown };
  const isObject = (x: unknown): x is Record<string, unknown> => x !== null && typeof x === "object" && !Array.isArray(x);
  if (!isObject(file) || !isObject(file.runs)) throw new Error("not a knockout-judge eval --out file (it has no runs)");
  const byDataset: [string, unknown][] =
    typeof file.dataset === "string" ? [[file.dataset, file.runs]] : Array.isArray(file.datasets) ? Object.entries(file.runs) : [];
  if (byDataset.length === 0) throw new Error("not a knockout-judge eval --out file (it names no dataset)");
  return byDataset.flatMap(([dataset, runs]) => {
    if (!isObject(runs)) throw new Error(`dataset ${dataset}: its runs are not an object`);
    return Object.entries(runs).map(([label, run]) => {
      const report = isObject(run) ? run.report : undefined;
      if (!isObject(report) || !isObject(report.questionLevel)) throw new Error(`dataset ${dataset}, ${label}: no report`);
      return { dataset: datasetName(dataset), label, report: report as unknown as EvaluationReport };
    });
  });
}

export interface Pairing {
  pairs: { baseline: GateRun; candidate: GateRun }[];
  /** Baseline runs the candidate lacks: a dropped dataset or method is a regression a gate must see. */
  missing: GateRun[];
  /** Candidate runs without a baseline: nothing to compare them with. */
  unmatched: GateRun[];
}

/**
 * Runs match by dataset and method label; a dataset with a single run on each side matches whatever the
 * labels (a baseline graded with `knockout` against a candidate graded with `knockout:logprobs`).
 */
export function pairRuns(baseline: readonly GateRun[], candidate: readonly GateRun[]): Pairing {
  const pairs: Pairing["pairs"] = [];
  const left = new Set(candidate);
  const missing: GateRun[] = [];
  for (const b of baseline) {
    const sameDataset = [...left].filter((c) => c.dataset === b.dataset);
    const onlyOne = sameDataset.length === 1 && baseline.filter((x) => x.dataset === b.dataset).length === 1;
    const match = sameDataset.find((c) => c.label === b.label) ?? (onlyOne ? sameDataset[0] : undefined);
    if (match === undefined) missing.push(b);
    else {
      pairs.push({ baseline: b, candidate: match });
      left.delete(match);
    }
  }
  return { pairs, missing, unmatched: [...left] };
}
