// `knockout-judge eval`: grade datasets through a running service, print the evaluation report, and
// hold each run to the --fail-under floors (gate.ts), in the --format a CI reads (gate-report.ts).
import { formatComparison, formatReport, formatTable1, type Table1Cell } from "../metrics/format.ts";
import { buildReport, type EvaluationReport } from "../metrics/report.ts";
import type { CliOptions } from "./args.ts";
import { formatDiagnostics, pooledDiagnostics } from "./diagnostics.ts";
import { formatPanel, pooledPanel } from "./panel-report.ts";
import { datasetName, parseDataset, withExaminees, type DatasetQuestion } from "./dataset.ts";
import { checkFloors, gateReason, type GateRun } from "./gate.ts";
import { githubSummary, junitXml } from "./gate-report.ts";
import { type CliIo, tableSink, writeDocument } from "./io.ts";
import { evaluationRequest, gradedItems, sumUsage } from "./items.ts";
import { progressBar } from "./progress.ts";
import { examineeRatings, serviceRatings } from "./ratings-text.ts";
import { estimateRequests, grade, gradeAsBatches, pool, type Graded, type Service } from "./service.ts";
import { variantLabel, type Variant } from "./variants.ts";

/** The eval command; the exit code: 1 when a dataset cannot be read or a run fails its gate. */
export async function runEval(o: CliOptions, io: CliIo): Promise<number> {
  const service: Service = { url: o.url, key: o.key, fetch: io.fetch };
  const print = tableSink(o.format, io);
  const gateRuns: GateRun[] = [];
  const table1: Table1Cell[] = [];
  const out: Record<string, Record<string, unknown>> = {};
  for (const dataset of o.datasets) {
    let questions: DatasetQuestion[];
    try {
      questions = withExaminees(parseDataset(io.readFile(dataset)), o.examinee);
    } catch (err) {
      io.err.write(`knockout-judge: ${dataset}: ${(err as Error).message}\n`);
      return 1;
    }
    const skipped = o.includeIgnored ? 0 : questions.filter((q) => q.ignored).length;
    questions = questions.filter((q) => o.includeIgnored || !q.ignored).filter((q) => q.answers.length >= 2);
    if (o.limit !== null) questions = questions.slice(0, o.limit);
    const answers = questions.reduce((s, q) => s + q.answers.length, 0);
    io.err.write(
      `${dataset}: ${questions.length} questions, ${answers} answers${skipped ? ` (${skipped} flagged ignored_in_published_work left out)` : ""}\n`,
    );

    if (o.dryRun) {
      // what grading would take, from the service's own estimate; nothing is created
      for (const variant of o.variants) {
        const bodies = questions.map((q, i) => evaluationRequest(q, i, variantSettings(variant, o)));
        const e = await estimateRequests(service, bodies);
        io.out(
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
      const { report, graded, ratings, batches: batchRecords } = await runMethod(service, questions, variant, o, label, io);
      const judgeDiagnostics = pooledDiagnostics(questions, graded);
      const panel = pooledPanel(questions, graded);
      reports[label] = report;
      gateRuns.push({ dataset: datasetName(dataset), label, report });
      table1.push({ method: label, dataset: datasetName(dataset), report });
      runs[label] = {
        variant: variant.spec,
        report,
        judgeDiagnostics,
        ...(panel ? { panel } : {}),
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
      print(`\n${formatReport(report, { perQuestion: o.perQuestion })}\n`);
      print(`\n${formatDiagnostics(judgeDiagnostics)}\n`);
      if (panel) print(`\n${formatPanel(panel)}\n`);
      if (ratings) print(`\n${ratings.text}\n`);
    }
    if (o.variants.length > 1)
      print(`\nComparison on ${dataset} (${questions.length} questions, ${answers} answers)\n${formatComparison(reports)}\n`);
    out[dataset] = runs;
  }
  if (o.variants.length > 1 || o.datasets.length > 1) print(`\n${formatTable1(table1)}\n`);
  if (o.out) {
    // one dataset keeps the file's earlier shape ({dataset, runs}); several nest the runs by dataset
    const body = o.datasets.length === 1 ? { dataset: o.datasets[0], runs: out[o.datasets[0]] } : { datasets: o.datasets, runs: out };
    const settings = { ...o, key: undefined, failUnder: o.failUnder.map((t) => `${t.metric.name}=${t.value}`) };
    io.writeFile(o.out, JSON.stringify({ ...body, url: o.url, settings }, null, 2));
    io.err.write(`wrote ${o.out}\n`);
  }
  if (o.dryRun) return 0;
  return gate(checkFloors(gateRuns, o.failUnder), o, io);
}

/** Writes the format's document and, when a case fails, the one-line reason; the exit code. */
function gate(cases: ReturnType<typeof checkFloors>, o: CliOptions, io: CliIo): number {
  const title = `knockout-judge eval: ${o.datasets.map(datasetName).join(", ")}`;
  if (o.format === "junit") writeDocument("junit", junitXml("knockout-judge", cases), io);
  if (o.format === "github") writeDocument("github", githubSummary(title, cases), io);
  const reason = gateReason(cases);
  if (reason === null) return 0;
  io.err.write(`knockout-judge: ${reason}\n`);
  return 1;
}

async function runMethod(service: Service, questions: DatasetQuestion[], variant: Variant, o: CliOptions, label: string, io: CliIo) {
  const bar = progressBar(label.padEnd(22), questions.length, io.err);
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
  for (const [i, g] of graded.entries()) if (g.error) io.err.write(`  question ${questions[i].questionId}: ${g.error}\n`);

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
    io.err.write(
      `batch ${batches.map((b) => b.id).join(", ")}: ${served.size} examinees in the service's exam level; ${served.size === 0 ? "none to compare" : agree ? "sums agree with the report" : "SUMS DIFFER from the report"}\n`,
    );
  }
  const fromService = batches.length === 1 && batches[0].ratings ? serviceRatings(batches[0].id, batches[0].ratings, report) : null;
  return { report, graded, batches, ratings: fromService ?? examineeRatings(questions, graded, report, o) };
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
    panel: o.panel,
  };
}
