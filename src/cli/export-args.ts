// The command line of `knockout-judge export`, apart from `eval`'s (args.ts): a different command
// with its own few options.
import { readArgs } from "./read-args.ts";
import { EXPORT_FORMATS, type ExportFormat } from "./export-rows.ts";

export const EXPORT_USAGE = `Usage: knockout-judge export ID --url URL --key KEY [--format csv|json] [--out FILE]

Writes the grades of a completed evaluation, one row per answer: id, examinee (for a collection, the
name the student gave), rank, judge_score, calibrated, teacher_score, final_score (the grade the
student is given), final_from (teacher | calibrated | judge), released_at (empty until released),
feedback and feedback_from (judge | teacher). ID is an evaluation (ev_...) or a collection (col_...,
once closed and graded). CSV cells a spreadsheet would run as formulas (= + - @ first) are neutralised
as on the review page.

Options:
  --url URL            the service, e.g. http://127.0.0.1:8787 (or KNOCKOUT_JUDGE_URL)
  --key KEY            an API key (or KNOCKOUT_JUDGE_KEY)
  --format F           csv | json (default: json for an --out ending in .json, else csv)
  --out FILE           write the file there (default: standard output)
`;

export interface ExportOptions {
  id: string;
  url: string;
  key: string;
  format: ExportFormat;
  out: string | null;
}

const ARGS = {
  allowPositionals: true,
  options: {
    url: { type: "string" },
    key: { type: "string" },
    format: { type: "string" },
    out: { type: "string" },
    help: { type: "boolean", short: "h" },
  },
} as const;

/** `argv` after the word `export`: the options, or the reason they are wrong (a usage error, exit code 2). */
export function parseExportCli(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>> = {},
): { ok: true; options: ExportOptions } | { ok: false; error: string } {
  const read = readArgs(ARGS, argv);
  if (!read.ok) return read;
  const parsed = read.parsed;
  const v = parsed.values;
  if (v.help) return { ok: false, error: "" };
  const [id, ...rest] = parsed.positionals;
  if (!id) return { ok: false, error: "missing ID: an evaluation (ev_...) or a collection (col_...)" };
  if (rest.length > 0) return { ok: false, error: `export takes one ID; also given: ${rest.join(" ")}` };
  const url = v.url ?? env.KNOCKOUT_JUDGE_URL;
  const key = v.key ?? env.KNOCKOUT_JUDGE_KEY;
  if (!url) return { ok: false, error: "--url is required (or set KNOCKOUT_JUDGE_URL)" };
  if (!key) return { ok: false, error: "--key is required (or set KNOCKOUT_JUDGE_KEY)" };
  if (v.format !== undefined && !EXPORT_FORMATS.includes(v.format as ExportFormat))
    return { ok: false, error: `--format must be one of ${EXPORT_FORMATS.join(", ")}` };
  const out = v.out ?? null;
  const format = (v.format as ExportFormat | undefined) ?? (out?.toLowerCase().endsWith(".json") ? "json" : "csv");
  return { ok: true, options: { id, url: url.replace(/\/+$/, ""), key, format, out } };
}
