import { parseArgs } from "node:util";
import type { ExamineeMode } from "./dataset";
import type { Method, Template } from "./items";

export const USAGE = `Usage: knockout-judge eval DATASET.jsonl --url URL --key KEY [options]

Grades a dataset (one question per JSON line: question_id, question, reference?, max_score,
min_score, answers [{id, text, human_score, examinee?}]) through a running knockout-judge service
and prints the evaluation report: correlations with the human scores at question and exam level,
Kocmi pairwise ranking accuracy, Pearson by elimination round, bootstrap intervals, judge spend.

Options:
  --url URL            the service, e.g. http://127.0.0.1:8787 (or KNOCKOUT_JUDGE_URL)
  --key KEY            an API key (or KNOCKOUT_JUDGE_KEY)
  --method M           knockout (default) | individual | pairwise | round-robin
  --compare M1,M2,...  run several methods on the same questions, print them side by side
  --debias / --no-debias   judge each pair in both orders (default: debiased)
  --template T         exam | exam-de | translation (default: translation for translation data, else exam)
  --max-score N        the judge's scale (default: the dataset's max_score; translations 100)
  --limit N            only the first N questions
  --include-ignored    keep questions flagged ignored_in_published_work (left out by default)
  --examinee MODE      auto (default) | id | field | none: who wrote each answer, for the exam level
  --concurrency N      evaluations in flight at once (default 8)
  --batch              send the questions as one batch (POST /v1/batches) and print the service's
                       exam level and examinee ratings (Elo, Bradley-Terry, Glicko-2, TrueSkill)
  --seed N             the run's seed; question i uses seed+i (default 1)
  --bootstrap N        bootstrap resamples for the intervals, 0 for none (default 1000)
  --per-question       list every question's coefficients
  --out FILE           write the reports, items and evaluation ids as JSON
`;

export interface CliOptions {
  dataset: string;
  url: string;
  key: string;
  methods: Method[];
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
  out: string | null;
}

const METHODS: readonly Method[] = ["knockout", "individual", "pairwise", "round-robin"];
const TEMPLATES: readonly Template[] = ["exam", "exam-de", "translation"];
const EXAMINEE: readonly ExamineeMode[] = ["auto", "id", "field", "none"];

/** The command line, or the reason it is wrong (a usage error, exit code 2). */
export function parseCli(argv: readonly string[], env: Readonly<Record<string, string | undefined>> = {}): { ok: true; options: CliOptions } | { ok: false; error: string } {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
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
        out: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (err) {
    return { ok: false, error: (err as Error).message };
  }
  const v = parsed.values;
  if (v.help) return { ok: false, error: "" };
  const [command, dataset, ...rest] = parsed.positionals;
  if (command !== "eval") return { ok: false, error: command ? `unknown command "${command}"` : "missing command: eval" };
  if (!dataset) return { ok: false, error: "missing DATASET.jsonl" };
  if (rest.length) return { ok: false, error: `unexpected argument "${rest[0]}"` };
  const url = v.url ?? env.KNOCKOUT_JUDGE_URL;
  const key = v.key ?? env.KNOCKOUT_JUDGE_KEY;
  if (!url) return { ok: false, error: "--url is required (or set KNOCKOUT_JUDGE_URL)" };
  if (!key) return { ok: false, error: "--key is required (or set KNOCKOUT_JUDGE_KEY)" };
  if (v.method && v.compare) return { ok: false, error: "give --method or --compare, not both" };
  const methods = (v.compare ?? v.method ?? "knockout").split(",").map((m) => m.trim()).filter(Boolean);
  const badMethod = methods.find((m) => !METHODS.includes(m as Method));
  if (badMethod !== undefined || methods.length === 0) return { ok: false, error: `unknown method "${badMethod ?? ""}"; one of ${METHODS.join(", ")}` };
  if (new Set(methods).size !== methods.length) return { ok: false, error: "--compare lists a method twice" };
  if (v.template !== undefined && !TEMPLATES.includes(v.template as Template)) return { ok: false, error: `--template must be one of ${TEMPLATES.join(", ")}` };
  if (v.examinee !== undefined && !EXAMINEE.includes(v.examinee as ExamineeMode)) return { ok: false, error: `--examinee must be one of ${EXAMINEE.join(", ")}` };
  const number = (name: string, value: string | undefined, fallback: number | null, min: number, integer = true) => {
    if (value === undefined) return fallback;
    const n = Number(value);
    if (!Number.isFinite(n) || n < min || (integer && !Number.isInteger(n))) throw new RangeError(`--${name} must be ${integer ? "an integer" : "a number"} >= ${min}`);
    return n;
  };
  try {
    return {
      ok: true,
      options: {
        dataset,
        url: url.replace(/\/+$/, ""),
        key,
        methods: methods as Method[],
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
        out: v.out ?? null,
      },
    };
  } catch (err) {
    return { ok: false, error: (err as Error).message };
  }
}
