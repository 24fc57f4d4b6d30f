// `knockout-judge export`: reads a completed evaluation (or a graded collection's) from the service
// and writes its grades, one row per answer (export-rows.ts), to a file or standard output.
import fs from "node:fs";
import { type KnockoutJudge, knockoutJudge } from "../client/index.ts";
import { EXPORT_USAGE, parseExportCli } from "./export-args.ts";
import { type ExportFormat, exportText } from "./export-rows.ts";

/**
 * The export's text. A collection id exports its evaluation with the names its students gave. Only a
 * completed evaluation is exported: before that no grade is decided, and a half-graded file in a
 * gradebook would look like one that is.
 */
export async function readExport(api: KnockoutJudge, id: string, format: ExportFormat): Promise<string> {
  let evaluationId = id;
  const names = new Map<string, string>();
  if (id.startsWith("col_")) {
    const collection = await api.collection(id);
    if (!collection.evaluation) throw new Error(`collection ${id} is ${collection.status} and has no evaluation yet: close it to grade it`);
    evaluationId = collection.evaluation.id;
    for (const a of collection.answers) if (typeof a.name === "string" && a.name !== "") names.set(a.id, a.name);
  }
  const evaluation = await api.evaluation(evaluationId);
  if (evaluation.status !== "completed")
    throw new Error(`evaluation ${evaluationId} is ${evaluation.status}; only a completed evaluation's grades are exported`);
  return exportText(evaluation, format, names);
}

/** The command: `argv` after the word `export`; the exit code (2 for a usage error, 1 when the service refuses). */
export async function runExport(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): Promise<number> {
  const cli = parseExportCli(argv, env);
  if (!cli.ok) {
    process.stderr.write(cli.error ? `knockout-judge export: ${cli.error}\n\n${EXPORT_USAGE}` : EXPORT_USAGE);
    return cli.error ? 2 : 0;
  }
  const o = cli.options;
  let text: string;
  try {
    text = await readExport(knockoutJudge({ baseUrl: o.url, key: o.key }), o.id, o.format);
  } catch (err) {
    process.stderr.write(`knockout-judge export: ${(err as Error).message}\n`);
    return 1;
  }
  if (o.out === null) {
    process.stdout.write(text);
    return 0;
  }
  fs.writeFileSync(o.out, text);
  process.stderr.write(`wrote ${o.out}\n`);
  return 0;
}
