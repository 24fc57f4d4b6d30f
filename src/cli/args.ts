import { readArgs } from "./read-args.ts";
import type { ExamineeMode } from "./dataset";
import { TEMPLATE_NAMES, type Template } from "../judge/templates";
import { parseVariant, type Variant } from "./variants";
import { parseThresholds, type Threshold } from "./gate";
import { REPORT_FORMATS, type ReportFormat } from "./gate-report";

export const USAGE = `Usage: knockout-judge eval DATASET.jsonl [DATASET2.jsonl ...] --url URL --key KEY [options]
       knockout-judge export ID --url URL --key KEY [--format csv|json] [--out FILE]
                       (a completed evaluation's grades, one row per answer; knockout-judge export --help)
       knockout-judge compare BASELINE.json CANDIDATE.json --fail-if-worse 0.02
                       (two runs' --out files, figure by figure; knockout-judge compare --help)
                       (a completed evaluation's grades, one row per answer; knockout-judge export --help)

Grades a dataset (one question per JSON line: question_id, question, reference?, max_score,
min_score, answers [{id, text, human_score, examinee?}]) through a running knockout-judge service
and prints the evaluation report: correlations with the human scores at question and exam level,
Kocmi pairwise ranking accuracy, Pearson by elimination round and by times graded (the paper's
Table 2), bootstrap intervals, judge spend. Several datasets, or several methods, also print the
paper's Table 1: methods as rows, datasets as columns, an Overall column.

Options:
  --url URL            the service, e.g. http://127.0.0.1:8787 (or KNOCKOUT_JUDGE_URL)
  --key KEY            an API key (or KNOCKOUT_JUDGE_KEY)
  --method M           knockout (default) | individual | pairwise | round-robin
  --compare M1,M2,...  run several methods or variants on the same questions, side by side; a variant
                       is a method with modifiers: knockout:no-debias, knockout:debias,
                       knockout:adaptive, knockout:logprobs, knockout:text, knockout:extra=2N (or
                       N/2, N, a count), combined as knockout:logprobs:extra=N
  --debias / --no-debias   judge each pair in both orders (default: debiased)
  --template T         exam | exam-de | translation (default: translation for translation data, else exam)
  --max-score N        the judge's scale (default: the dataset's max_score; translations 100)
  --limit N            only the first N questions
  --include-ignored    keep questions flagged ignored_in_published_work (left out by default)
  --examinee MODE      auto (default) | id | field | none: who wrote each answer, for the exam level
  --concurrency N      evaluations in flight at once (default 8)
  --dry-run            print what grading would take (judge calls, tokens, seconds), create nothing
  --batch              send the questions as one batch (POST /v1/batches) and print the service's
                       exam level and examinee ratings (Elo, Bradley-Terry, Glicko-2, TrueSkill)
  --seed N             the run's seed; question i uses seed+i (default 1)
  --panel M1,M2,...    grade with a panel of judges, models the service's pool serves (judge.panel);
                       the report adds each judge's agreement with the panel and its own diagnostics
  --panel-mode MODE    cycle (default: each match to the next judge in turn) | all (every call to
                       every judge, averaged: the cost times the panel's size)
  --bootstrap N        bootstrap resamples for the intervals, 0 for none (default 1000)
  --per-question       list every question's coefficients
  --out FILE           write the reports, items and evaluation ids as JSON (what compare reads)
  --fail-under M=X,... exit 1, with a one-line reason, when a run's figure is below its floor: pearson,
                       spearman, kendall (pooled, in [-1, 1]), qwk (judge and human scores as grades,
                       [-1, 1]), exact ([0, 1]), accuracy (pairwise ranking accuracy, [0, 1])
  --format F           table (default) | junit (JUnit XML on standard output) | github (a Markdown
                       step summary, appended to $GITHUB_STEP_SUMMARY when set, else on standard
                       output); with either, the table goes to standard error
`;

export interface CliOptions {
  datasets: string[];
  url: string;
  key: string;
  /** The methods or variants to run, each on every dataset. */
  variants: Variant[];
  debias: boolean;
  template: Template | null;
  maxScore: number | null;
  limit: number | null;
  includeIgnored: boolean;
  examinee: ExamineeMode;
  concurrency: number;
  seed: number;
  bootstrap: number;
  perQuestion: boolean;
  batch: boolean;
  dryRun: boolean;
  out: string | null;
  /** `--panel` and `--panel-mode`: a panel of judges for every question; null: the service's judge. */
  panel?: { models: string[]; mode: "cycle" | "all" } | null;
  /** Floors each run is held to (`--fail-under`); empty: no gate. */
  failUnder: Threshold[];
  format: ReportFormat;
}

const TEMPLATES = TEMPLATE_NAMES;
const EXAMINEE: readonly ExamineeMode[] = ["auto", "id", "field", "none"];

/** The options `eval` takes, for node:util parseArgs. */
const ARGS = {
  allowPositionals: true,
  allowNegative: true,
  options: {
    url: { type: "string" },
    key: { type: "string" },
    method: { type: "string" },
    compare: { type: "string" },
    debias: { type: "boolean" },
    template: { type: "string" },
    "max-score": { type: "string" },
    limit: { type: "string" },
    "include-ignored": { type: "boolean" },
    examinee: { type: "string" },
    concurrency: { type: "string" },
    seed: { type: "string" },
    bootstrap: { type: "string" },
    "per-question": { type: "boolean" },
    batch: { type: "boolean" },
    "dry-run": { type: "boolean" },
    out: { type: "string" },
    "fail-under": { type: "string" },
    panel: { type: "string" },
    "panel-mode": { type: "string" },
    format: { type: "string" },
    help: { type: "boolean", short: "h" },
  },
} as const;

/** The command line, or the reason it is wrong (a usage error, exit code 2). */
export function parseCli(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>> = {},
): { ok: true; options: CliOptions } | { ok: false; error: string } {
  const read = readArgs(ARGS, argv);
  if (!read.ok) return read;
  const parsed = read.parsed;
  const v = parsed.values;
  if (v.help) return { ok: false, error: "" };
  const [command, ...datasets] = parsed.positionals;
  if (command !== "eval") return { ok: false, error: command ? `unknown command "${command}"` : "missing command: eval or export" };
  if (datasets.length === 0) return { ok: false, error: "missing DATASET.jsonl" };
  if (new Set(datasets).size !== datasets.length) return { ok: false, error: "a dataset is given twice" };
  const url = v.url ?? env.KNOCKOUT_JUDGE_URL;
  const key = v.key ?? env.KNOCKOUT_JUDGE_KEY;
  if (!url) return { ok: false, error: "--url is required (or set KNOCKOUT_JUDGE_URL)" };
  if (!key) return { ok: false, error: "--key is required (or set KNOCKOUT_JUDGE_KEY)" };
  if (v.method && v.compare) return { ok: false, error: "give --method or --compare, not both" };
  const specs = (v.compare ?? v.method ?? "knockout")
    .split(",")
    .map((m) => m.trim())
    .filter(Boolean);
  if (specs.length === 0) return { ok: false, error: `unknown method ""` };
  if (v.method?.includes(":")) return { ok: false, error: "--method takes a method; give variants to --compare" };
  const variants: Variant[] = [];
  for (const spec of specs) {
    const parsedVariant = parseVariant(spec, v.debias ?? true);
    if (!parsedVariant.ok) return { ok: false, error: parsedVariant.error };
    variants.push(parsedVariant.variant);
  }
  if (new Set(specs).size !== specs.length) return { ok: false, error: "--compare lists a method or variant twice" };
  if (v.template !== undefined && !TEMPLATES.includes(v.template as Template))
    return { ok: false, error: `--template must be one of ${TEMPLATES.join(", ")}` };
  if (v.examinee !== undefined && !EXAMINEE.includes(v.examinee as ExamineeMode))
    return { ok: false, error: `--examinee must be one of ${EXAMINEE.join(", ")}` };
  if (v.format !== undefined && !REPORT_FORMATS.includes(v.format as ReportFormat))
    return { ok: false, error: `--format must be one of ${REPORT_FORMATS.join(", ")}` };
  const floors =
    v["fail-under"] === undefined ? { ok: true as const, thresholds: [] } : parseThresholds("--fail-under", v["fail-under"], "floor");
  if (!floors.ok) return floors;
  if (v["dry-run"] && (floors.thresholds.length > 0 || (v.format ?? "table") !== "table"))
    return { ok: false, error: "--dry-run grades nothing: it takes no --fail-under or --format" };
  const panel = readPanel(v.panel, v["panel-mode"]);
  if (!panel.ok) return panel;
  const number = (name: string, value: string | undefined, fallback: number | null, min: number, integer = true) => {
    if (value === undefined) return fallback;
    const n = Number(value);
    if (!Number.isFinite(n) || n < min || (integer && !Number.isInteger(n)))
      throw new RangeError(`--${name} must be ${integer ? "an integer" : "a number"} >= ${min}`);
    return n;
  };
  try {
    return {
      ok: true,
      options: {
        datasets,
        url: url.replace(/\/+$/, ""),
        key,
        variants,
        debias: v.debias ?? true,
        template: (v.template as Template | undefined) ?? null,
        maxScore: number("max-score", v["max-score"], null, Number.MIN_VALUE, false),
        limit: number("limit", v.limit, null, 1),
        includeIgnored: v["include-ignored"] ?? false,
        examinee: (v.examinee as ExamineeMode | undefined) ?? "auto",
        concurrency: number("concurrency", v.concurrency, 8, 1)!,
        seed: number("seed", v.seed, 1, 0)!,
        bootstrap: number("bootstrap", v.bootstrap, 1000, 0)!,
        perQuestion: v["per-question"] ?? false,
        batch: v.batch ?? false,
        dryRun: v["dry-run"] ?? false,
        out: v.out ?? null,
        panel: panel.panel,
        failUnder: floors.thresholds,
        format: (v.format as ReportFormat | undefined) ?? "table",
      },
    };
  } catch (err) {
    return { ok: false, error: (err as Error).message };
  }
}

/** `--panel M1,M2,...` and `--panel-mode`: the models (the service checks that its pool serves them) and the mode. */
function readPanel(
  list: string | undefined,
  mode: string | undefined,
): { ok: true; panel: NonNullable<CliOptions["panel"]> | null } | { ok: false; error: string } {
  if (mode !== undefined && mode !== "cycle" && mode !== "all") return { ok: false, error: "--panel-mode must be cycle or all" };
  if (list === undefined) return mode === undefined ? { ok: true, panel: null } : { ok: false, error: "--panel-mode needs --panel" };
  const models = list
    .split(",")
    .map((m) => m.trim())
    .filter(Boolean);
  if (models.length === 0) return { ok: false, error: "--panel needs at least one model" };
  if (new Set(models).size !== models.length) return { ok: false, error: "--panel names a model twice" };
  return { ok: true, panel: { models, mode: mode ?? "cycle" } };
}
