// `knockout-judge compare`'s table: per matched run, each figure's baseline, candidate and change. Pure.
import type { GateCase, GateRun } from "./gate.ts";

export interface CompareRow {
  baseline: GateRun;
  candidate: GateRun;
  cases: GateCase[];
}

const figure = (x: number | null | undefined) => (x === null || x === undefined ? "n/a" : x.toFixed(3));
const change = (c: GateCase) =>
  c.value === null || c.baseline === null || c.baseline === undefined
    ? ""
    : `${c.value >= c.baseline ? "+" : ""}${(c.value - c.baseline).toFixed(3)}`;

export function formatComparisonCases(rows: readonly CompareRow[], missing: readonly GateRun[], unmatched: readonly GateRun[]): string {
  const lines: string[] = [];
  for (const { baseline, candidate, cases } of rows) {
    const labels = baseline.label === candidate.label ? candidate.label : `${baseline.label} -> ${candidate.label}`;
    lines.push(`${candidate.dataset}, ${labels}`);
    const width = Math.max(...cases.map((c) => c.metric.length), 6);
    for (const c of cases) {
      const bar = c.threshold === null ? "" : `   (drop at most ${c.threshold})`;
      const verdict = c.kind === "none" ? "" : c.failure ? "   FAILED" : "   ok";
      lines.push(
        `  ${c.metric.padEnd(width)}  ${figure(c.baseline).padStart(7)} -> ${figure(c.value).padStart(7)}  ${change(c).padStart(7)}${bar}${verdict}`,
      );
    }
  }
  for (const b of missing) lines.push(`${b.dataset}, ${b.label}: in the baseline, not in the candidate`);
  for (const c of unmatched) lines.push(`${c.dataset}, ${c.label}: in the candidate only, nothing to compare with`);
  return lines.join("\n");
}
