import { type DiagnosedCall, type JudgeDiagnostics, judgeDiagnostics } from "../core/diagnostics";
import type { MatchView } from "../core/outcome";
import { absences, type JudgeAgreement, matchesByJudge, type PanelMode, panelAgreement } from "../core/panel";
import type { DatasetQuestion } from "./dataset";
import { formatDiagnostics } from "./diagnostics";
import type { Graded } from "./service";

// The CLI report's panel of judges (issue 30 item 3): per judge, its agreement with the panel and its
// own diagnostics, pooled over every question of the run as the service computes them per evaluation
// (src/core/panel.ts, src/core/diagnostics.ts), from the calls each evaluation recorded. Pure.

export interface PanelJudgeReport extends JudgeAgreement {
  /** "all": the calls it gave no answer to (down, or failing). */
  absent?: number;
  judgeDiagnostics: JudgeDiagnostics;
}

export interface PanelReport {
  mode: PanelMode;
  /** The completed questions graded by the panel. */
  questions: number;
  judges: PanelJudgeReport[];
}

/** What the report reads of a result with a panel (the contract's `panel`, its answers and matches). */
interface PanelResult {
  status: string;
  answers: { id: string; score: number | null }[];
  matches?: (Omit<MatchView, "round" | "calls"> & { round: number | string; calls?: MatchView["calls"] })[];
  panel?: { mode: string; judges: { model: string }[] };
}

/**
 * The panel's report over the completed evaluations of a run that has one (`graded[i]` is
 * `questions[i]`'s); null when none has. Answers are told apart by question, so the agreement is the
 * pooled one: each judge's mean score of every answer it scored against the panel's score of it.
 */
export function pooledPanel(questions: readonly DatasetQuestion[], graded: readonly Pick<Graded, "result">[]): PanelReport | null {
  const runs = graded.flatMap((g, i) => {
    const r = g.result as PanelResult | null;
    return r?.status === "completed" && r.panel ? [{ r, panel: r.panel, i }] : [];
  });
  if (runs.length === 0) return null;
  const mode: PanelMode = runs[0].panel.mode === "all" ? "all" : "cycle";
  const models = [...new Set(runs.flatMap(({ panel }) => panel.judges.map((j) => j.model)))];
  const key = (i: number, id: string) => `${i}\u0000${id}`;
  const length = new Map<string, number>();
  const answers: { id: string; score: number | null }[] = [];
  const matches: MatchView[] = [];
  for (const { r, i } of runs) {
    for (const a of questions[i].answers) length.set(key(i, a.id), Array.from(a.text).length);
    for (const a of r.answers) answers.push({ id: key(i, a.id), score: a.score });
    for (const m of r.matches ?? [])
      matches.push({
        ...m,
        round: typeof m.round === "number" ? m.round : 0,
        a: key(i, m.a),
        b: m.b === null ? null : key(i, m.b),
        winner: m.winner === null ? null : key(i, m.winner),
        calls: (m.calls ?? []).map((c) => ({ ...c, order: c.order.map((id) => key(i, id)) })),
        // an extra match is "extra" on the wire: it decides nothing, and counts in no tie
        ...(m.extra || m.round === "extra" ? { extra: true } : {}),
      });
  }
  const outcome = { answers: answers.map((a) => ({ ...a, scores: [], eliminatedInRound: null, rank: 0 })), matches };
  const played = matchesByJudge(models, matches, mode);
  const missed = absences(models, matches);
  return {
    mode,
    questions: runs.length,
    judges: panelAgreement(models, outcome, mode).map((j) => ({
      ...j,
      ...(mode === "all" ? { absent: missed.get(j.model) ?? 0 } : {}),
      judgeDiagnostics: judgeDiagnostics(
        (played.get(j.model) ?? []).map((m) => ({
          ...m,
          calls: m.calls as DiagnosedCall[],
          lengthA: length.get(m.a) ?? 0,
          lengthB: m.b === null ? null : (length.get(m.b) ?? 0),
        })),
      ),
    })),
  };
}

const MODES: Record<PanelMode, string> = {
  cycle: '"cycle": each match to the next judge in turn',
  all: '"all": every call to every judge, averaged',
};

const fixed = (x: number | null) => (x === null ? "–" : x.toFixed(3));

/** The report's section: a line a judge (its agreement with the panel), then each judge's diagnostics. */
export function formatPanel(p: PanelReport): string {
  const all = p.mode === "all";
  const head = ["judge", "matches", "answers", "Pearson vs panel", "mean abs diff", ...(all ? ["absent calls"] : [])];
  const rows = p.judges.map((j) => [
    j.model,
    String(j.matches),
    String(j.answers),
    fixed(j.pearson),
    fixed(j.meanAbsDiff),
    ...(all ? [String(j.absent ?? 0)] : []),
  ]);
  const widths = head.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c].length)));
  const line = (cells: string[]) => `  ${cells.map((x, c) => (c === 0 ? x.padEnd(widths[c]) : x.padStart(widths[c]))).join("  ")}`;
  return [
    `Panel of judges (${MODES[p.mode]}), pooled over ${p.questions} question${p.questions === 1 ? "" : "s"}`,
    line(head),
    ...rows.map(line),
    "  (a judge whose Pearson is low or negative against its panel is the one that disagrees with the rest)",
    ...p.judges.map((j) => `\n${formatDiagnostics(j.judgeDiagnostics, `Judge diagnostics of ${j.model} (the matches it judged)`)}`),
  ].join("\n");
}
