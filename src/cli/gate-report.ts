// The gate's cases (gate.ts) in the forms a CI shows: JUnit XML (each threshold on each run a test, a
// failing one a <failure>) and a Markdown step summary (GitHub Actions' $GITHUB_STEP_SUMMARY). Pure.
import { type GateCase, gateReason } from "./gate";

export const REPORT_FORMATS = ["table", "junit", "github"] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

const figure = (x: number | null | undefined) => (x === null || x === undefined ? "n/a" : x.toFixed(3));

/** A case's test name: stable from run to run (the figure is in its output, not its name), so a CI can follow it. */
export function caseName(c: GateCase): string {
  if (c.kind === "floor") return `${c.metric} >= ${c.threshold}`;
  if (c.kind === "drop") return `${c.metric} no more than ${c.threshold} below the baseline`;
  return c.metric;
}

function caseOutput(c: GateCase): string {
  return c.baseline !== undefined ? `${c.metric} ${figure(c.value)} (baseline ${figure(c.baseline)})` : `${c.metric} ${figure(c.value)}`;
}

/**
 * Text as XML 1.0 character data or an attribute value: the five markup characters as entities, and the
 * characters XML cannot carry at all (controls but tab and line ends, lone surrogates) dropped, since a
 * dataset's name or a method label may hold anything and one bad byte makes the whole report unreadable.
 */
export function xmlText(text: string): string {
  let kept = "";
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    const allowed =
      code === 0x9 ||
      code === 0xa ||
      code === 0xd ||
      (code >= 0x20 && code <= 0xd7ff) ||
      (code >= 0xe000 && code <= 0xfffd) ||
      code > 0xffff;
    if (allowed) kept += ch;
  }
  return kept.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&apos;");
}

/** One <testsuite> per run (dataset and method), one <testcase> per threshold or metric. */
export function junitXml(suite: string, cases: readonly GateCase[]): string {
  const runs = new Map<string, GateCase[]>();
  for (const c of cases) {
    const key = `${c.dataset}\u0000${c.label}`;
    runs.set(key, [...(runs.get(key) ?? []), c]);
  }
  const failures = (cs: readonly GateCase[]) => cs.filter((c) => c.failure !== null).length;
  const lines = [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="${xmlText(suite)}" tests="${cases.length}" failures="${failures(cases)}">`,
  ];
  for (const run of runs.values()) {
    const { dataset, label } = run[0];
    lines.push(`  <testsuite name="${xmlText(`${dataset}: ${label}`)}" tests="${run.length}" failures="${failures(run)}">`);
    for (const c of run) {
      lines.push(`    <testcase classname="${xmlText(`${suite}.${dataset}`)}" name="${xmlText(`${label}: ${caseName(c)}`)}">`);
      if (c.failure !== null) lines.push(`      <failure message="${xmlText(c.failure)}" type="threshold">${xmlText(c.failure)}</failure>`);
      lines.push(`      <system-out>${xmlText(caseOutput(c))}</system-out>`, `    </testcase>`);
    }
    lines.push(`  </testsuite>`);
  }
  lines.push(`</testsuites>`, "");
  return lines.join("\n");
}

/**
 * A Markdown table cell: the characters that would end the cell or turn into markup (Markdown's own and
 * HTML, which GitHub renders) escaped, and line breaks flattened, so a label cannot break the table.
 */
export function markdownCell(text: string): string {
  return text
    .replace(/[\r\n]+/g, " ")
    .replace(/&/g, "&amp;")
    .replace(/[\\`*_[\]<>|#~!]/g, (c) => `\\${c}`);
}

/** The step summary: the verdict, then one row per case. */
export function githubSummary(title: string, cases: readonly GateCase[]): string {
  const reason = gateReason(cases);
  const gated = cases.some((c) => c.kind !== "none");
  const compared = cases.some((c) => c.baseline !== undefined);
  const verdict = !gated ? "" : reason === null ? " ✅ passed" : " ❌ failed";
  const header = ["Dataset", "Method", "Metric", ...(compared ? ["Baseline"] : []), "Value", ...(gated ? ["Threshold", "Result"] : [])];
  const rows = cases.map((c) => [
    markdownCell(c.dataset),
    markdownCell(c.label),
    c.metric,
    ...(compared ? [figure(c.baseline)] : []),
    figure(c.value),
    ...(gated ? [threshold(c), c.failure === null ? "✅" : "❌"] : []),
  ]);
  const line = (cells: readonly string[]) => `| ${cells.join(" | ")} |`;
  return [
    `### ${markdownCell(title)}${verdict}`,
    "",
    line(header),
    line(header.map(() => "---")),
    ...rows.map(line),
    ...(reason === null ? [] : ["", markdownCell(reason)]),
    "",
  ].join("\n");
}

function threshold(c: GateCase): string {
  if (c.kind === "floor") return `≥ ${c.threshold}`;
  if (c.kind === "drop") return `drop ≤ ${c.threshold}`;
  return "";
}
