// `knockout-judge eval`: grade a dataset through a running service and print the evaluation report.
// `knockout-judge export` (export.ts): write a graded evaluation's grades, one row per answer.

import fs from "node:fs";
import { examGames } from "../model/exam.ts";
import { formatComparison, formatReport, formatTable1, type Table1Cell } from "../metrics/format.ts";
import { buildReport, type EvaluationReport } from "../metrics/report.ts";
import { rateTournament } from "../ratings/index.ts";
import { parseCli, USAGE, type CliOptions } from "./args.ts";
import { datasetName, parseDataset, withExaminees, type DatasetQuestion } from "./dataset.ts";
import { evaluationRequest, gradedItems, sumUsage } from "./items.ts";
import { variantLabel, type Variant } from "./variants.ts";
import { progressBar } from "./progress.ts";
import { runExport } from "./export.ts";
import { formatDiagnostics, pooledDiagnostics } from "./diagnostics.ts";
import { estimateRequests, grade, gradeAsBatches, pool, type Graded, type Service } from "./service.ts";

export async function main(argv: readonly string[]): Promise<number> {
  if (argv[0] === "export") return runExport(argv.slice(1), process.env);
  const cli = parseCli(argv, process.env);
  if (!cli.ok) {
    process.stderr.write(cli.error ? `knockout-judge: ${cli.error}\n\n${USAGE}` : USAGE);
    return cli.error ? 2 : 0;
  }
  const o = cli.options;
  const service: Service = { url: o.url, key: o.key };
  const table1: Table1Cell[] = [];
  const out: Record<string, Record<string, unknown>> = {};
  for (const dataset of o.datasets) {
    let questions: DatasetQuestion[];
    try {
      questions = withExaminees(parseDataset(fs.readFileSync(dataset, "utf8")), o.examinee);
    } catch (err) {
      process.stderr.write(`knockout-judge: ${dataset}: ${(err as Error).message}\n`);
      return 1;
    }
    const skipped = o.includeIgnored ? 0 : questions.filter((q) => q.ignored).length;
    questions = questions.filter((q) => o.includeIgnored || !q.ignored).filter((q) => q.answers.length >= 2);
    if (o.limit !== null) questions = questions.slice(0, o.limit);
    const answers = questions.reduce((s, q) => s + q.answers.length, 0);
    process.stderr.write(
      `${dataset}: ${questions.length} questions, ${answers} answers${skipped ? ` (${skipped} flagged ignored_in_published_work left out)` : ""}\n`,
    );

    if (o.dryRun) {
      // what grading would take, from the service's own estimate; nothing is created
      for (const variant of o.variants) {
        const bodies = questions.map((q, i) => evaluationRequest(q, i, variantSettings(variant, o)));
        const e = await estimateRequests(service, bodies);
        process.stdout.write(
          `${variantLabel(variant)}: ${e.judgeCalls} judge calls, ${e.promptTokens} prompt + ${e.completionTokens} completion tokens, about ${e.seconds} s` +
            ` (tokens: ${e.basis.promptTokens}; completion: ${e.basis.completionTokens}; time: ${e.basis.seconds}, ${e.basis.secondsPerCall} s a call)\n`,
        );
      }
      continue;
    }
    const reports: Record<string, EvaluationReport> = {};
    const runs: Record<string, unknown> = {};
    for (const variant of o.variants) {
      const label = variantLabel(variant);
      const { report, graded, ratings, batches: batchRecords } = await runMethod(service, questions, variant, o, label);
      const judgeDiagnostics = pooledDiagnostics(questions, graded);
      reports[label] = report;
      table1.push({ method: label, dataset: datasetName(dataset), report });
      runs[label] = {
        variant: variant.spec,
        report,
        judgeDiagnostics,
        ratings,
        batches: batchRecords,
        evaluations: graded.map((g, i) => ({
          questionId: questions[i].questionId,
          id: g.id,
          status: g.result?.status ?? "error",
          error: g.error ?? undefined,
          usage: g.result?.usage,
        })),
      };
      process.stdout.write(`\n${formatReport(report, { perQuestion: o.perQuestion })}\n`);
      process.stdout.write(`\n${formatDiagnostics(judgeDiagnostics)}\n`);
      if (ratings) process.stdout.write(`\n${ratings.text}\n`);
    }
    if (o.variants.length > 1)
      process.stdout.write(
        `\nComparison on ${dataset} (${questions.length} questions, ${answers} answers)\n${formatComparison(reports)}\n`,
      );
    out[dataset] = runs;
  }
  if (o.variants.length > 1 || o.datasets.length > 1) process.stdout.write(`\n${formatTable1(table1)}\n`);
  if (o.out) {
    // one dataset keeps the file's earlier shape ({dataset, runs}); several nest the runs by dataset
    const body = o.datasets.length === 1 ? { dataset: o.datasets[0], runs: out[o.datasets[0]] } : { datasets: o.datasets, runs: out };
    fs.writeFileSync(o.out, JSON.stringify({ ...body, url: o.url, settings: { ...o, key: undefined } }, null, 2));
    process.stderr.write(`wrote ${o.out}\n`);
  }
  return 0;
}

async function runMethod(service: Service, questions: DatasetQuestion[], variant: Variant, o: CliOptions, label: string) {
  const bar = progressBar(label.padEnd(22), questions.length);
  bar.update(0);
  let failed = 0;
  const bodies = questions.map((q, i) => evaluationRequest(q, i, variantSettings(variant, o)));
  let graded: Graded[];
  let batches: Awaited<ReturnType<typeof gradeAsBatches>>["batches"] = [];
  if (o.batch) {
    ({ graded, batches } = await gradeAsBatches(service, bodies, (done, f) => {
      failed = f;
      bar.update(done, failed ? `${failed} failed` : "");
    }));
  } else {
    graded = await pool(
      bodies,
      o.concurrency,
      async (body) => {
        const g = await grade(service, body);
        if (g.error) failed++;
        return g;
      },
      (done) => bar.update(done, failed ? `${failed} failed` : ""),
    );
  }
  bar.finish(failed ? `${failed} failed` : "");
  for (const [i, g] of graded.entries()) if (g.error) process.stderr.write(`  question ${questions[i].questionId}: ${g.error}\n`);

  const items = questions.flatMap((q, i) => gradedItems(q, graded[i].result));
  const usage = sumUsage(graded.map((g) => g.result));
  const report = buildReport(items, {
    method: label,
    usage,
    bootstrap: o.bootstrap === 0 ? false : { resamples: o.bootstrap, seed: o.seed },
    // the scale of the dataset's first question: the teacher agreement's exact share and kappa count its steps
    scale: questions[0] ? { maxScore: questions[0].maxScore, step: questions[0].translation ? 1 : 0.5 } : undefined,
  });
  if (batches.length > 0) {
    // the service's exam level (GET /v1/batches/:id) and the report's are computed apart: they must agree
    const served = new Map<string, { total: number; questionsAnswered: number }>();
    for (const b of batches)
      for (const e of b.record.examLevel ?? []) {
        const row = served.get(e.examinee) ?? { total: 0, questionsAnswered: 0 };
        served.set(e.examinee, { total: row.total + e.total, questionsAnswered: row.questionsAnswered + e.questionsAnswered });
      }
    const mine = report.examLevel?.examinees ?? [];
    const agree =
      mine.length === served.size &&
      mine.every(
        (e) =>
          Math.abs((served.get(e.examinee)?.total ?? NaN) - e.judgeTotal) < 1e-6 &&
          served.get(e.examinee)!.questionsAnswered === e.questionsAnswered,
      );
    process.stderr.write(
      `batch ${batches.map((b) => b.id).join(", ")}: ${served.size} examinees in the service's exam level; ${served.size === 0 ? "none to compare" : agree ? "sums agree with the report" : "SUMS DIFFER from the report"}\n`,
    );
  }
  const fromService = batches.length === 1 && batches[0].ratings ? serviceRatings(batches[0].id, batches[0].ratings, report) : null;
  return { report, graded, batches, ratings: fromService ?? examineeRatings(questions, graded, report, o) };
}

/** seeds/002: every match between labelled answers is a game between their examinees. */
function examineeRatings(questions: DatasetQuestion[], graded: Graded[], report: EvaluationReport, o: CliOptions) {
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
function serviceRatings(batchId: string, rated: any, report: EvaluationReport) {
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

/** What every question of a run is graded with. */
function variantSettings(variant: Variant, o: CliOptions) {
  return {
    method: variant.method,
    debias: variant.debias,
    scoreFrom: variant.scoreFrom,
    extraCalls: variant.extraCalls,
    template: o.template,
    maxScore: o.maxScore,
    seed: o.seed,
  };
}
