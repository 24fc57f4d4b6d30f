// The CI gate: `eval --fail-under pearson=0.80,qwk=0.6` holds each run to floors, `compare
// --fail-if-worse 0.02` holds a candidate run to its baseline's figures. Pure: thresholds from the
// command line, figures from a report, one case per threshold and run, and the one-line reason a
// failing pipeline prints. gate-report.ts renders the cases as JUnit XML or a Markdown step summary.
import type { EvaluationReport } from "../metrics/report";

/** A figure of the report a gate can hold a run to; every one of them is better higher. */
export interface GateMetric {
  name: string;
  /** What the figure is, for the reports. */
  label: string;
  low: number;
  high: number;
  read: (r: EvaluationReport) => number | null;
}

export const GATE_METRICS: readonly GateMetric[] = [
  { name: "pearson", label: "Pearson, pooled", low: -1, high: 1, read: (r) => r.questionLevel.pooled.pearson.value },
  { name: "spearman", label: "Spearman, pooled", low: -1, high: 1, read: (r) => r.questionLevel.pooled.spearman.value },
  { name: "kendall", label: "Kendall tau-b, pooled", low: -1, high: 1, read: (r) => r.questionLevel.pooled.kendallTauB.value },
  { name: "qwk", label: "quadratic weighted kappa", low: -1, high: 1, read: (r) => r.humanAgreement?.qwk ?? null },
  { name: "exact", label: "exact grade share", low: 0, high: 1, read: (r) => r.humanAgreement?.exact ?? null },
  { name: "accuracy", label: "pairwise ranking accuracy", low: 0, high: 1, read: (r) => r.examLevel?.rankingAccuracy.value ?? null },
];

const byName = new Map(GATE_METRICS.map((m) => [m.name, m]));

export interface Threshold {
  metric: GateMetric;
  value: number;
}

/**
 * `pearson=0.80,qwk=0.6`: floors (`--fail-under`), each within its metric's range; or, for `--fail-if-worse`,
 * tolerated drops (a bare number is Pearson's), each from 0 to the metric's whole range. The reason when
 * wrong names the flag and the part at fault (a usage error: exit 2).
 */
export function parseThresholds(
  flag: string,
  text: string,
  kind: "floor" | "drop",
): { ok: true; thresholds: Threshold[] } | { ok: false; error: string } {
  const thresholds: Threshold[] = [];
  const parts = text.split(",").map((p) => p.trim());
  for (const part of parts) {
    const bare = kind === "drop" && !part.includes("=");
    const [name, raw] = bare ? ["pearson", part] : part.split("=").map((s) => s.trim());
    if (!name || raw === undefined || part.split("=").length > 2)
      return { ok: false, error: `${flag}: "${part}" is not METRIC=VALUE (for example pearson=0.8)` };
    const metric = byName.get(name);
    if (!metric) return { ok: false, error: `${flag}: unknown metric "${name}"; one of ${GATE_METRICS.map((m) => m.name).join(", ")}` };
    const value = /^[+-]?(\d+\.?\d*|\.\d+)$/.test(raw) ? Number(raw) : Number.NaN;
    if (!Number.isFinite(value)) return { ok: false, error: `${flag}: ${name} must be a number, not "${raw}"` };
    const [low, high] = kind === "floor" ? [metric.low, metric.high] : [0, metric.high - metric.low];
    if (value < low || value > high) return { ok: false, error: `${flag}: ${name}=${raw} is out of range [${low}, ${high}]` };
    if (thresholds.some((t) => t.metric === metric)) return { ok: false, error: `${flag}: ${name} is given twice` };
    thresholds.push({ metric, value });
  }
  return { ok: true, thresholds };
}

/** A run as the gate sees it: its dataset, its method or variant, and its report. */
export interface GateRun {
  dataset: string;
  label: string;
  report: EvaluationReport;
}

/** One threshold checked on one run: a test case of the JUnit report, a row of the summary. */
export interface GateCase {
  dataset: string;
  label: string;
  metric: string;
  /** The run's figure (null: undefined on this run, which fails, since it cannot be shown to pass). */
  value: number | null;
  /** `compare`: the baseline's figure. */
  baseline?: number | null;
  /** The floor, or for `compare` the tolerated drop; null where no threshold was set (shown, never failing). */
  threshold: number | null;
  kind: "floor" | "drop" | "none";
  /** Why the case fails; null when it passes. */
  failure: string | null;
}

const show = (x: number) => String(Number(x.toFixed(4)));

/** Each run against each floor; with no floors, every metric the run has, as passing cases (the report in CI's terms). */
export function checkFloors(runs: readonly GateRun[], floors: readonly Threshold[]): GateCase[] {
  return runs.flatMap((run) => {
    if (floors.length === 0)
      return GATE_METRICS.flatMap((metric) => {
        const value = metric.read(run.report);
        return value === null ? [] : [{ ...where(run), metric: metric.name, value, threshold: null, kind: "none" as const, failure: null }];
      });
    return floors.map(({ metric, value: floor }): GateCase => {
      const value = metric.read(run.report);
      const failure =
        value === null
          ? `${metric.name} is undefined on ${describe(run)}, so it cannot be shown to reach ${show(floor)}`
          : value < floor
            ? `${metric.name} ${show(value)} is below ${show(floor)} on ${describe(run)}`
            : null;
      return { ...where(run), metric: metric.name, value, threshold: floor, kind: "floor", failure };
    });
  });
}

/**
 * A candidate run against its baseline: a figure that fell by more than its tolerated drop fails. With no
 * drops given, every figure either run has is shown beside the baseline's, and nothing fails.
 */
export function checkDrops(pairs: readonly { baseline: GateRun; candidate: GateRun }[], drops: readonly Threshold[]): GateCase[] {
  return pairs.flatMap(({ baseline, candidate }) => {
    if (drops.length === 0)
      return GATE_METRICS.flatMap((metric): GateCase[] => {
        const [before, after] = [metric.read(baseline.report), metric.read(candidate.report)];
        if (before === null && after === null) return [];
        return [{ ...where(candidate), metric: metric.name, value: after, baseline: before, threshold: null, kind: "none", failure: null }];
      });
    return drops.map(({ metric, value: drop }): GateCase => {
      const before = metric.read(baseline.report);
      const after = metric.read(candidate.report);
      let failure: string | null = null;
      if (after === null) failure = `${metric.name} is undefined on ${describe(candidate)}`;
      // a baseline without the figure sets no bar: nothing to be worse than
      else if (before !== null && before - after > drop + 1e-12)
        failure = `${metric.name} ${show(after)} is ${show(before - after)} below the baseline's ${show(before)} on ${describe(candidate)} (at most ${show(drop)} allowed)`;
      return { ...where(candidate), metric: metric.name, value: after, baseline: before, threshold: drop, kind: "drop", failure };
    });
  });
}

/** The one line a failing gate prints, every failure in it; null when all cases pass. */
export function gateReason(cases: readonly GateCase[]): string | null {
  const failures = cases.flatMap((c) => (c.failure ? [c.failure] : []));
  return failures.length === 0 ? null : `gate failed: ${failures.join("; ")}`;
}

const where = (run: GateRun) => ({ dataset: run.dataset, label: run.label });
const describe = (run: GateRun) => `${run.dataset}, ${run.label}`;
