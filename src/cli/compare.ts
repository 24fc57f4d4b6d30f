// `knockout-judge compare BASELINE.json CANDIDATE.json`: two `eval --out` files, run by run and figure by
// figure; with --fail-if-worse, exit 1 when a candidate's figure fell by more than allowed (a CI's
// regression gate: the baseline from the main branch, the candidate from the pull request).
import { readArgs } from "./read-args.ts";
import { type CompareRow, formatComparisonCases } from "./compare-text.ts";
import { pairRuns, runsOf } from "./compare-runs.ts";
import { checkDrops, gateReason, parseThresholds } from "./gate.ts";
import { githubSummary, junitXml, REPORT_FORMATS, type ReportFormat } from "./gate-report.ts";
import { type CliIo, tableSink, writeDocument } from "./io.ts";

export const COMPARE_USAGE = `Usage: knockout-judge compare BASELINE.json CANDIDATE.json [--fail-if-worse X | M=X,...] [--format F]

Compares two runs written by \`knockout-judge eval --out\`: each dataset and method of the baseline
against the candidate's (matched by dataset file name and method; a dataset with one run on each side
matches whatever the methods), every figure side by side.

Options:
  --fail-if-worse X    exit 1, with a one-line reason, when the candidate's pooled Pearson is more than X
                       below the baseline's; M=X,... for other figures: pearson, spearman, kendall, qwk,
                       exact, accuracy (see knockout-judge --help). A baseline run the candidate lacks fails.
  --format F           table (default) | junit | github, as for eval
`;

const ARGS = {
  allowPositionals: true,
  options: { "fail-if-worse": { type: "string" }, format: { type: "string" }, help: { type: "boolean", short: "h" } },
} as const;

export async function runCompare(argv: readonly string[], io: CliIo): Promise<number> {
  const usage = (error: string) => {
    io.err.write(error ? `knockout-judge compare: ${error}\n\n${COMPARE_USAGE}` : COMPARE_USAGE);
    return error ? 2 : 0;
  };
  const args = readArgs(ARGS, argv);
  if (!args.ok) return usage(args.error);
  const parsed = args.parsed;
  const v = parsed.values;
  if (v.help) return usage("");
  if (parsed.positionals.length !== 2) return usage("give two files: BASELINE.json CANDIDATE.json");
  if (v.format !== undefined && !REPORT_FORMATS.includes(v.format as ReportFormat))
    return usage(`--format must be one of ${REPORT_FORMATS.join(", ")}`);
  const format = (v.format as ReportFormat | undefined) ?? "table";
  const drops =
    v["fail-if-worse"] === undefined
      ? { ok: true as const, thresholds: [] }
      : parseThresholds("--fail-if-worse", v["fail-if-worse"], "drop");
  if (!drops.ok) return usage(drops.error);

  const [baselineFile, candidateFile] = parsed.positionals;
  const read = (file: string) => runsOf(JSON.parse(io.readFile(file)));
  let runs: ReturnType<typeof read>[];
  try {
    runs = [baselineFile, candidateFile].map((file) => {
      try {
        return read(file);
      } catch (err) {
        throw new Error(`${file}: ${(err as Error).message}`);
      }
    });
  } catch (err) {
    io.err.write(`knockout-judge compare: ${(err as Error).message}\n`);
    return 1;
  }
  const { pairs, missing, unmatched } = pairRuns(runs[0], runs[1]);
  const cases = [
    ...checkDrops(pairs, drops.thresholds),
    ...missing.map((b) => ({
      dataset: b.dataset,
      label: b.label,
      metric: "run",
      value: null,
      baseline: null,
      threshold: null,
      kind: "drop" as const,
      failure: `${candidateFile} has no run for ${b.dataset}, ${b.label}`,
    })),
  ];
  const rows: CompareRow[] = pairs.map((p) => ({
    ...p,
    cases: cases.filter((c) => c.dataset === p.candidate.dataset && c.label === p.candidate.label),
  }));
  tableSink(format, io)(`${formatComparisonCases(rows, missing, unmatched)}\n`);
  const title = `knockout-judge compare: ${candidateFile} against ${baselineFile}`;
  if (format === "junit") writeDocument(format, junitXml("knockout-judge", cases), io);
  if (format === "github") writeDocument(format, githubSummary(title, cases), io);
  const reason = gateReason(cases);
  if (reason === null) return 0;
  io.err.write(`knockout-judge: ${reason}\n`);
  return 1;
}
