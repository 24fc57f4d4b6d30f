// @ts-check
// The review page: a completed evaluation's answers, those most likely graded wrong first, each with
// its text, interval, that probability and its reasons, matches and the judge's words, and a field for the teacher's own
// grade. Enter saves (PUT …/grade) and moves on; the agreement and calibration are the service's,
// read again after every save. The release workflow (filter, release buttons, count) is release.js.
// The pure parts (order, CSV) are exported for the unit tests.
import { formatScore } from "./score-format.js";
import { api, errorMessage, savedKey } from "./api.js";
import { csvCell } from "./answers-file.js";
import { $ } from "./dom.js";
import { feedbackEditor } from "./feedback-editor.js";
import { filterOf, releaseCount, releaseRow, shownBy, wireReleaseBar } from "./release.js";

/**
 * An answer of the result as this page reads it (GET /v1/evaluations/:id).
 * @typedef {{ id: string, text?: string, score: number | null, rank: number, judgments?: number,
 *   interval?: [number, number] | null, review?: null | { flagged?: boolean, probability?: number, reasons: string[] }, teacherScore?: number | null,
 *   calibrated?: number | null, finalScore?: number | null, finalFrom?: string | null, releasedAt?: string | null,
 *   feedback?: import("../../src/contract").Feedback | null, feedbackError?: string }} ReviewAnswer
 * @typedef {{ round: number | "extra", a: string, b: string | null, scoreA: number | null, scoreB: number | null,
 *   winner: string | null, calls: { order: string[], scores: number[], raw: string }[] }} ReviewMatch
 * @typedef {{ id: string, status: string, question: string, maxScore: number, template: string,
 *   answers: ReviewAnswer[], matches: ReviewMatch[], agreement: null | Record<string, number | null>,
 *   calibration: null | { n: number, method?: string, range: [number, number], scope: string, reach?: number } }} ReviewResult
 */

/**
 * The order a teacher reviews in: the most likely graded wrong first (the service's review
 * probability; the flagged answers are the first of them), then the widest intervals, then by rank.
 * @param {readonly ReviewAnswer[]} answers
 */
export function reviewOrder(answers) {
  const width = (/** @type {ReviewAnswer} */ a) => (a.interval ? a.interval[1] - a.interval[0] : Number.POSITIVE_INFINITY);
  const probability = (/** @type {ReviewAnswer} */ a) => a.review?.probability ?? -1;
  return [...answers].sort((x, y) => probability(y) - probability(x) || width(y) - width(x) || x.rank - y.rank);
}

/**
 * The review as CSV: each answer's judge score, interval, calibrated score, teacher grade, final grade
 * and where it came from, release time, the probability its grade is wrong (the order the page reviews
 * in, so a spreadsheet can sort the same way), reasons, feedback and text; texts neutralised as formulas.
 * @param {readonly ReviewAnswer[]} answers
 */
export function reviewCsv(answers) {
  const head = [
    "id",
    "rank",
    "judge_score",
    "interval_low",
    "interval_high",
    "calibrated",
    "teacher_score",
    "final_score",
    "final_from",
    "released_at",
    "review_probability",
    "review",
    "feedback",
    "text",
  ];
  const lines = [head.join(",")];
  for (const a of [...answers].sort((x, y) => x.rank - y.rank)) {
    lines.push(
      [
        a.id,
        a.rank,
        a.score ?? "",
        a.interval?.[0] ?? "",
        a.interval?.[1] ?? "",
        a.calibrated ?? "",
        a.teacherScore ?? "",
        a.finalScore ?? "",
        a.finalFrom ?? "",
        a.releasedAt ?? "",
        a.review?.probability ?? "",
        (a.review?.reasons ?? []).join(" "),
        a.feedback?.text ?? "",
        a.text ?? "",
      ]
        .map(csvCell)
        .join(","),
    );
  }
  return `${lines.join("\r\n")}\r\n`;
}

/**
 * The agreement as a sentence.
 * @param {ReviewResult} result
 */
export function agreementText(result) {
  const a = result.agreement;
  const graded = result.answers.filter((x) => x.teacherScore !== null && x.teacherScore !== undefined).length;
  if (!a) return `${graded} of ${result.answers.length} answers graded by you. Agreement with the judge shows from 2 grades on.`;
  const cal = result.calibration
    ? ` Calibrated scores from ${result.calibration.n} grades (${METHODS[result.calibration.method ?? ""] ?? "fitted"}; judge scores ${formatScore(result.calibration.range[0])} to ${formatScore(result.calibration.range[1])}).`
    : " Calibrated scores show from 2 grades on.";
  return `${graded} of ${result.answers.length} answers graded by you. Agreement with the judge (n = ${a.n}): Pearson ${formatScore(a.pearson)}, Spearman ${formatScore(a.spearman)}, mean absolute difference ${formatScore(a.mae)}, exact ${Math.round(100 * (a.exact ?? 0))}%, QWK ${formatScore(a.qwk)}.${cal}`;
}

/** What each calibration map does, in a teacher's words. */
const METHODS = /** @type {Record<string, string>} */ ({
  identity: "the judge's scores as they are",
  shift: "the judge's scores moved by your mean difference, less the further they are from those you graded",
  median: "the judge's scores moved by your median difference, less the further they are from those you graded",
  linear: "a straight line through your grades",
  isotonic: "a monotone curve through your grades",
  blend: "a line through your grades, its slope drawn towards the judge's",
});

const REASONS = /** @type {Record<string, string>} */ ({
  "orders-disagree": "the two orders of a match chose different winners",
  "single-judgment": "judged only once",
  tie: "a tie decided its match",
  "parse-retried": "the judge's reply had to be asked for again",
  "near-boundary": "its interval crosses a grade boundary",
  "outside-calibration": "outside the scores you graded",
});

// ---- the page (only in a browser)
if (typeof document !== "undefined" && document.getElementById("review")) start();

/** The evaluation as last read: the release bar and the filter act on it. @type {ReviewResult | null} */
let current = null;

async function start() {
  const id = new URLSearchParams(location.search).get("id") ?? "";
  const key = savedKey();
  if (!key) return status("No API key is saved in this browser: save it on the grade page first.", true);
  if (!id) return status("No evaluation named: open this page from a result's “Review and grade” link.", true);
  wireReleaseBar(
    {
      current: () => current,
      key,
      reload: async () => render(await load(id, key), key, null),
      redraw: () => current && render(current, key, null),
    },
    {
      reviewed: $("release-reviewed", HTMLButtonElement),
      all: $("release-all", HTMLButtonElement),
      filter: $("filter", HTMLSelectElement),
      message: $("release-message"),
    },
  );
  try {
    render(await load(id, key), key, null);
  } catch (err) {
    status(errorMessage(err), true);
  }
}

/**
 * @param {string} id
 * @param {string} key
 * @returns {Promise<ReviewResult>}
 */
function load(id, key) {
  return api("GET", `/v1/evaluations/${encodeURIComponent(id)}`, { key });
}

/**
 * @param {string} text
 * @param {boolean} [isError]
 */
function status(text, isError = false) {
  $("status").textContent = text;
  $("status").classList.toggle("error", isError);
}

/**
 * Draws the page, the answers the filter shows; `focus` is the answer whose grade field (after a save)
 * or release button (after a release or a withdrawal) gets the focus.
 * @param {ReviewResult} result
 * @param {string} key
 * @param {{ id: string, on: "grade" | "release" } | null} focus
 */
function render(result, key, focus) {
  if (result.status !== "completed") return status(`This evaluation is ${result.status}: it can be reviewed once it has completed.`, true);
  current = result;
  status("");
  $("review").hidden = false;
  $("question").textContent = result.question;
  $("agreement").textContent = agreementText(result);
  $("release-count").textContent = releaseCount(result.answers);
  const csv = $("csv", HTMLAnchorElement);
  URL.revokeObjectURL(csv.href);
  csv.href = URL.createObjectURL(new Blob([reviewCsv(result.answers)], { type: "text/csv" }));
  csv.download = `${result.id}-review.csv`;
  const list = $("answers");
  const order = reviewOrder(result.answers);
  // the order is kept while grading: a saved grade must not move the answer the teacher just left
  const kept = list.dataset.order ? list.dataset.order.split("\n") : null;
  const ordered =
    kept && kept.length === order.length ? kept.map((id) => order.find((a) => a.id === id)).filter((a) => a !== undefined) : order;
  list.dataset.order = ordered.map((a) => a.id).join("\n");
  const filter = filterOf($("filter", HTMLSelectElement));
  const shown = ordered.filter((a) => shownBy(filter, a));
  const empty = document.createElement("li");
  empty.className = "hint";
  empty.textContent = filter === "reviewed" ? "No answer graded by you yet." : "Every answer is graded by you.";
  list.replaceChildren(...(shown.length ? shown.map((a, i) => answerCard(result, a, i, shown, key)) : [empty]));
  if (focus) document.getElementById(`${focus.on}-${shown.findIndex((a) => a.id === focus.id)}`)?.focus();
}

/**
 * @param {ReviewResult} result
 * @param {ReviewAnswer} a
 * @param {number} i
 * @param {ReviewAnswer[]} ordered
 * @param {string} key
 */
function answerCard(result, a, i, ordered, key) {
  const li = document.createElement("li");
  li.className = "card review-answer";
  li.dataset.id = a.id;
  const title = document.createElement("h3");
  title.textContent = `${a.id} · judge ${formatScore(a.score)} of ${formatScore(result.maxScore)}${a.interval ? ` (95% interval ${formatScore(a.interval[0])}–${formatScore(a.interval[1])})` : ""}${a.calibrated !== null && a.calibrated !== undefined ? ` · calibrated ${formatScore(a.calibrated)}` : ""}`;
  const text = document.createElement("p");
  text.className = "answer-text";
  text.textContent = a.text ?? "";
  li.append(title, text);
  if (a.review) {
    const why = document.createElement("p");
    why.className = a.review.flagged ? "reasons flagged" : "reasons";
    const likely = a.review.probability === undefined ? "" : `${Math.round(100 * a.review.probability)}% likely graded wrong`;
    const reasons = a.review.reasons.map((r) => REASONS[r] ?? r).join("; ");
    why.textContent = `${a.review.flagged ? "Look at it: " : ""}${[likely, reasons].filter(Boolean).join(": ")}.`;
    if (likely || reasons) li.append(why);
  }
  const mine = result.matches.filter((m) => m.a === a.id || m.b === a.id);
  if (mine.length) {
    const details = document.createElement("details");
    const summary = document.createElement("summary");
    summary.textContent = `Its ${mine.length} match${mine.length > 1 ? "es" : ""} and the judge's words`;
    details.append(summary);
    for (const m of mine) {
      const p = document.createElement("p");
      p.textContent =
        m.b === null
          ? `Judged alone: ${formatScore(m.scoreA)}`
          : `${m.round === "extra" ? "Extra judgment" : `Round ${m.round}`}: ${m.a} ${formatScore(m.scoreA)} – ${formatScore(m.scoreB)} ${m.b}`;
      details.append(p);
      for (const c of m.calls) {
        const pre = document.createElement("pre");
        pre.textContent = c.raw;
        details.append(pre);
      }
    }
    li.append(details);
  }
  const form = document.createElement("form");
  form.className = "row grade-form";
  const label = document.createElement("label");
  label.htmlFor = `grade-${i}`;
  label.textContent = `Your grade for ${a.id}`;
  const input = document.createElement("input");
  input.id = `grade-${i}`;
  input.type = "number";
  input.min = "0";
  input.max = String(result.maxScore);
  input.step = "any";
  input.value = a.teacherScore === null || a.teacherScore === undefined ? "" : String(a.teacherScore);
  const noteLabel = document.createElement("label");
  noteLabel.htmlFor = `note-${i}`;
  noteLabel.textContent = "Note";
  const note = document.createElement("input");
  note.id = `note-${i}`;
  note.type = "text";
  note.maxLength = 2000;
  const save = document.createElement("button");
  save.type = "submit";
  save.textContent = "Save";
  const error = document.createElement("p");
  error.className = "error";
  error.setAttribute("role", "alert");
  error.hidden = true;
  form.append(label, input, noteLabel, note, save, error);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const score = Number(input.value);
    if (input.value.trim() === "" || !Number.isFinite(score) || score < 0 || score > result.maxScore) {
      error.textContent = `Your grade: a number from 0 to ${formatScore(result.maxScore)}.`;
      error.hidden = false;
      return input.focus();
    }
    try {
      const body = note.value.trim() ? { score, note: note.value.trim() } : { score };
      await api("PUT", `/v1/evaluations/${encodeURIComponent(result.id)}/answers/${encodeURIComponent(a.id)}/grade`, { key, body });
      const next = ordered[Math.min(i + 1, ordered.length - 1)];
      render(await load(result.id, key), key, { id: next.id, on: "grade" });
    } catch (err) {
      error.textContent = errorMessage(err);
      error.hidden = false;
    }
  });
  form.addEventListener("keydown", (event) => {
    if (!event.altKey || (event.key !== "ArrowDown" && event.key !== "ArrowUp")) return;
    event.preventDefault();
    const to = Math.max(0, Math.min(ordered.length - 1, i + (event.key === "ArrowDown" ? 1 : -1)));
    document.getElementById(`grade-${to}`)?.focus();
  });
  li.append(form);
  // the feedback its student reads, when the evaluation has any (or a teacher may write one)
  if (a.feedback !== undefined) li.append(feedbackEditor(result, a, i, key));
  li.append(releaseRow(result, a, i, key, async () => render(await load(result.id, key), key, { id: a.id, on: "release" })));
  return li;
}
