import { type DiagnosedCall, type DiagnosedMatch, type JudgeDiagnostics, judgeDiagnostics, type Share } from "../core/diagnostics";
import type { DatasetQuestion } from "./dataset";
import type { Graded } from "./service";

// The CLI report's judge diagnostics: the service's figures (src/core/diagnostics.ts) pooled over every
// question of the run, from the calls each evaluation recorded and the dataset's answer texts. Pure.

type ShownMatch = Omit<DiagnosedMatch, "lengthA" | "lengthB">;

/** The diagnostics over the completed evaluations of a run; `graded[i]` is `questions[i]`'s. */
export function pooledDiagnostics(questions: readonly DatasetQuestion[], graded: readonly Pick<Graded, "result">[]): JudgeDiagnostics {
  const matches = graded.flatMap((g, i) => {
    if (g.result?.status !== "completed") return [];
    const length = new Map(questions[i].answers.map((a) => [a.id, Array.from(a.text).length]));
    const shown = ((g.result as { matches?: ShownMatch[] }).matches ?? []).map((m) => ({
      ...m,
      calls: (m.calls ?? []) as DiagnosedCall[],
      extra: m.extra ?? (m as { round?: unknown }).round === "extra",
    }));
    return shown.map((m) => ({ ...m, lengthA: length.get(m.a) ?? 0, lengthB: m.b === null ? null : (length.get(m.b) ?? 0) }));
  });
  return judgeDiagnostics(matches);
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

function figure(f: Share, extra = ""): string {
  if (f.of === 0) return "–";
  const interval = f.interval ? `, 95% ${pct(f.interval[0])}–${pct(f.interval[1])}` : "";
  return `${pct(f.share!)} (${f.count} of ${f.of}${extra})${interval}`;
}

/** The report's section: one line a figure, the anchor beside it, then the warnings. */
export function formatDiagnostics(d: JudgeDiagnostics, title = "Judge diagnostics (pooled over the run's calls)"): string {
  const rows: [string, string, string][] = [
    ["first position wins", figure(d.firstPositionWins), "FastChat's judge: 52.6%"],
    ["orders disagree", figure(d.ordersDisagree), "FastChat's judge: 12.9%"],
    [
      "longer answer wins",
      figure(d.longerWins, `; ${d.longerWins.lengthRatio}x the characters or more`),
      "FastChat's judge: 68%; AlpacaEval warns above 70%",
    ],
    ["parse retried", figure(d.parseRetried), ""],
    ["written ties", figure(d.ties, `; ${d.ties.byPosition} decided by position`), ""],
  ];
  const label = Math.max(...rows.map((r) => r[0].length));
  const value = Math.max(...rows.map((r) => r[1].length));
  return [
    title,
    ...rows.map(([l, v, a]) => `  ${l.padEnd(label)}  ${a ? `${v.padEnd(value)}  [${a}]` : v}`),
    ...d.warnings.map((w) => `  warning: ${w.message}`),
  ].join("\n");
}
