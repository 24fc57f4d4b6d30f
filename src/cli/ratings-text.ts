// The examinee ratings a run prints: the CLI's own from every match between labelled answers, or the
// service's for a batch (GET /v1/batches/:id/ratings), as text tables beside the report.
import type { EvaluationReport } from "../metrics/report.ts";
import { examGames } from "../model/exam.ts";
import { rateTournament } from "../ratings/index.ts";
import type { CliOptions } from "./args.ts";
import type { DatasetQuestion } from "./dataset.ts";
import type { Graded } from "./service.ts";

/** seeds/002: every match between labelled answers is a game between their examinees. */
export function examineeRatings(questions: DatasetQuestion[], graded: Graded[], report: EvaluationReport, o: CliOptions) {
  const matches = graded.flatMap((g, question) => {
    const examinee = new Map(questions[question].answers.map((a) => [a.id, a.examinee ?? null]));
    return (g.result?.status === "completed" ? (g.result.matches ?? []) : []).map((m) => ({
      question,
      examineeA: examinee.get(m.a) ?? null,
      examineeB: m.b === null ? null : (examinee.get(m.b) ?? null),
      scoreA: m.scoreA,
      scoreB: m.scoreB,
    }));
  });
  const games = examGames(matches);
  if (games.length === 0) return null;
  const rated = rateTournament(games, {
    systems: ["bradleyTerry", "elo"],
    bootstrap: o.bootstrap === 0 ? false : { samples: Math.min(o.bootstrap, 300), seed: o.seed },
  });
  const human = new Map(
    [...(report.examLevel?.examinees ?? [])].sort((x, y) => y.humanTotal - x.humanTotal).map((e, i) => [e.examinee, i + 1]),
  );
  const bt = rated.systems.bradleyTerry!.players;
  const elo = new Map(rated.systems.elo!.players.map((p) => [p.player, p]));
  const fmt = (x: number) => x.toFixed(0);
  const rows = bt.map((p) => [
    String(p.rank),
    p.player,
    `${fmt(p.rating)}${p.ci ? ` [${fmt(p.ci.low)}, ${fmt(p.ci.high)}]` : ""}`,
    fmt(elo.get(p.player)!.rating),
    String(human.get(p.player) ?? "-"),
  ]);
  const header = ["rank", "examinee", "Bradley-Terry", "Elo", "human rank"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) => `  ${r.map((c, i) => (i === 1 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("   ")}`;
  const t = rated.transitivity;
  const text = [
    `Examinee ratings from ${games.length} games (every match between two labelled answers)`,
    line(header),
    ...rows.map(line),
    `  transitivity: ${t.triples.transitive}/${t.triples.decided} decided triples transitive${t.linearOrder ? " (a linear order)" : ""}`,
  ].join("\n");
  return { text, ratings: rated };
}

/** The service's ratings of a batch (GET /v1/batches/:id/ratings): every system's rank side by side. */
export function serviceRatings(batchId: string, rated: any, report: EvaluationReport) {
  const human = new Map(
    [...(report.examLevel?.examinees ?? [])].sort((x, y) => y.humanTotal - x.humanTotal).map((e, i) => [e.examinee, i + 1]),
  );
  const systems = ["bradleyTerry", "elo", "glicko2", "trueskill"] as const;
  const by = systems.map((s) => new Map<string, any>(rated.systems[s].players.map((p: any) => [p.player, p])));
  const header = ["examinee", "Bradley-Terry", "Elo", "Glicko-2", "TrueSkill", "human rank"];
  const cell = (p: any) => `${p.rating.toFixed(0)} (#${p.rank}${p.rankCi ? ` ${p.rankCi.low}-${p.rankCi.high}` : ""})`;
  const rows = rated.systems.bradleyTerry.players.map((p: any) => [
    p.player,
    ...by.map((m) => cell(m.get(p.player))),
    String(human.get(p.player) ?? "-"),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r: string[]) => r[i].length)));
  const line = (r: string[]) => `  ${r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("   ")}`;
  const t = rated.transitivity;
  const text = [
    `Examinee ratings from the service (GET /v1/batches/${batchId}/ratings): ${rated.games} games; rating (#rank, ${Math.round(rated.bootstrap?.confidence * 100 || 95)}% rank interval)`,
    line(header),
    ...rows.map(line),
    `  transitivity: ${t.triples.transitive}/${t.triples.decided} decided triples transitive${t.linearOrder ? " (a linear order)" : ""}; ` +
      systems.map((s) => `${s} agrees with ${t.agreement[s].agreeing}/${t.agreement[s].decidedPairs} head-to-head majorities`).join(", "),
  ].join("\n");
  return { text, ratings: rated };
}
