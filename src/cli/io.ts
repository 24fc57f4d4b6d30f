// What a command reads and writes, passed in: the terminal's streams, files, the environment and the
// service's fetch. The installed command uses Node's (nodeIo); a test runs the same command against
// the Worker itself and reads what it printed.
import fs from "node:fs";
import type { ReportFormat } from "./gate-report.ts";

export interface CliIo {
  out(text: string): void;
  /** Progress and messages; a terminal redraws the progress bar in place. */
  err: { write(text: string): unknown; isTTY?: boolean };
  env: Readonly<Record<string, string | undefined>>;
  readFile(path: string): string;
  writeFile(path: string, text: string): void;
  appendFile(path: string, text: string): void;
  /** The service's fetch (default: the global one). */
  fetch?: typeof fetch;
}

export function nodeIo(): CliIo {
  return {
    out: (text) => process.stdout.write(text),
    err: process.stderr,
    env: process.env,
    readFile: (path) => fs.readFileSync(path, "utf8"),
    writeFile: (path, text) => fs.writeFileSync(path, text),
    appendFile: (path, text) => fs.appendFileSync(path, text),
  };
}

/**
 * Where the human-readable table goes: standard output for `--format table`; for a CI's formats standard
 * error, so the log still shows it and standard output carries the document alone (or nothing, when the
 * summary goes to $GITHUB_STEP_SUMMARY), safe to redirect into a file.
 */
export function tableSink(format: ReportFormat, io: CliIo): (text: string) => void {
  return format === "table" ? (text) => io.out(text) : (text) => void io.err.write(text);
}

/** The format's document: JUnit XML on standard output, the step summary appended to $GITHUB_STEP_SUMMARY (or standard output). */
export function writeDocument(format: ReportFormat, document: string, io: CliIo): void {
  if (format === "table") return;
  const summary = io.env.GITHUB_STEP_SUMMARY;
  if (format === "github" && summary) io.appendFile(summary, document);
  else io.out(document);
}
