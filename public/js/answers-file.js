// @ts-check
// Reading answers from a pasted or uploaded file, in the browser (pure: text in, questions out).
// JSONL is the schema of the project's datasets: one question per line,
//   {"question_id", "question", "reference"?, "max_score"?, "answers": [{"id", "text", ...}]}
// CSV has a header row with an `id` column (or `answer_id`) and a `text` column (or `answer`).
// Anything else is read as plain text, one answer per non-empty line.

/** @typedef {{ id: string, text: string }} Answer */
/** @typedef {{ questionId: string|null, question: string|null, reference: string|null, maxScore: number|null, answers: Answer[] }} Question */

/** @typedef {{ ok: true, questions: Question[] } | { ok: false, reason: string }} AnswersRead */

/**
 * @param {string} text
 * @returns {AnswersRead}
 */
export function readAnswersFile(text, name = "") {
  const body = text.replace(/^\uFEFF/, "");
  if (!body.trim()) return { ok: false, reason: "the file is empty" };
  const lower = name.toLowerCase();
  if (lower.endsWith(".jsonl") || lower.endsWith(".json") || body.trimStart().startsWith("{")) return readJsonl(body);
  if (lower.endsWith(".csv") || /^[^\n]*\b(id|answer_id)\b[^\n]*,/i.test(body)) return readCsv(body);
  const answers = body
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean)
    .map((t, i) => ({ id: `a${i + 1}`, text: t }));
  return { ok: true, questions: [{ questionId: null, question: null, reference: null, maxScore: null, answers }] };
}

/**
 * @param {string} body
 * @returns {AnswersRead}
 */
function readJsonl(body) {
  /** @type {Question[]} */
  const questions = [];
  const lines = body.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i].trim()) continue;
    let row;
    try {
      row = JSON.parse(lines[i]);
    } catch (err) {
      return { ok: false, reason: `line ${i + 1} is not valid JSON (${/** @type {SyntaxError} */ (err).message})` };
    }
    if (!row || !Array.isArray(row.answers)) return { ok: false, reason: `line ${i + 1} has no "answers" list` };
    const answers = [];
    for (const [j, a] of row.answers.entries()) {
      if (!a || typeof a.text !== "string") return { ok: false, reason: `line ${i + 1}, answers[${j}] has no "text"` };
      answers.push({ id: a.id === undefined || a.id === null || a.id === "" ? `a${j + 1}` : String(a.id), text: a.text });
    }
    questions.push({
      questionId: row.question_id === undefined ? null : String(row.question_id),
      question: typeof row.question === "string" ? row.question : null,
      reference: typeof row.reference === "string" ? row.reference : null,
      maxScore: typeof row.max_score === "number" && row.max_score > 0 ? row.max_score : null,
      answers,
    });
  }
  if (questions.length === 0) return { ok: false, reason: "the file has no questions" };
  return { ok: true, questions };
}

/**
 * @param {string} body
 * @returns {AnswersRead}
 */
function readCsv(body) {
  const rows = csvRows(body);
  if (!rows.ok) return rows;
  const [header, ...data] = rows.rows;
  const names = header.map((h) => h.trim().toLowerCase());
  const idCol = names.findIndex((n) => n === "id" || n === "answer_id");
  const textCol = names.findIndex((n) => n === "text" || n === "answer");
  if (textCol < 0) return { ok: false, reason: 'the CSV header needs a "text" column' };
  const answers = data
    .filter((r) => r.some((cell) => cell.trim() !== ""))
    .map((r, i) => ({ id: idCol >= 0 && r[idCol]?.trim() ? r[idCol].trim() : `a${i + 1}`, text: r[textCol] ?? "" }));
  return { ok: true, questions: [{ questionId: null, question: null, reference: null, maxScore: null, answers }] };
}

/**
 * RFC 4180: quoted fields may hold commas, newlines and doubled quotes.
 * @param {string} text
 * @returns {{ ok: true, rows: string[][] } | { ok: false, reason: string }}
 */
export function csvRows(text) {
  /** @type {string[][]} */
  const rows = [];
  /** @type {string[]} */
  let row = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"' && cell === "") quoted = true;
    else if (ch === ",") {
      row.push(cell);
      cell = "";
    } else if (ch === "\n" || ch === "\r") {
      if (ch === "\r" && text[i + 1] === "\n") i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
    } else cell += ch;
  }
  if (quoted) return { ok: false, reason: "a quoted CSV field is never closed" };
  if (cell !== "" || row.length) {
    row.push(cell);
    rows.push(row);
  }
  if (rows.length === 0) return { ok: false, reason: "the CSV is empty" };
  return { ok: true, rows };
}

// the cell writer lives in csv-cell.js, shared with the CLI; re-exported for the pages that import it from here
export { csvCell } from "./csv-cell.js";
