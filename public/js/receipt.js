// @ts-check
// A submitter's receipt: the token in the URL shows this one answer and, once graded, its score and rank.
import { formatScore } from "./score-format.js";
import { api, ApiError, errorMessage } from "./api.js";
import { $ } from "./dom.js";

/**
 * A receipt as `GET /v1/receipts/:token` sends it (src/api/receipts.ts builds it inline, with no type of
 * its own to import; the result's score and rank are an answer's, nullable as in AnswerView and D1).
 * @typedef {{
 *   question: string,
 *   status: "collecting" | "grading" | "graded" | "failed" | "not graded",
 *   reason?: string,
 *   answer: { text: string, name: string | null, submittedAt: string },
 *   result: { score: number | null, maxScore: number, rank: number | null, of: number } | null,
 * }} Receipt
 */

const token = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() ?? "");
/** @type {Partial<Record<Receipt["status"], string>>} */
const waiting = {
  collecting: "The question is still collecting answers. Your score and rank appear here once it closes and the answers are graded.",
  grading: "The answers are being graded now. Come back in a little while.",
  failed: "Grading could not be completed; the organiser can see why.",
  "not graded": "The answers were not graded",
};

try {
  /** @type {Receipt} */
  const r = await api("GET", `/v1/receipts/${encodeURIComponent(token)}`);
  $("question").textContent = r.question;
  $("answer").textContent = r.answer.text;
  if (r.answer.name) $("answer").append(document.createElement("br"), `— ${r.answer.name}`);
  if (r.result) {
    const score = document.createElement("p");
    score.className = "big";
    score.textContent = `${formatScore(r.result.score)} of ${formatScore(r.result.maxScore)} points`;
    const rank = document.createElement("p");
    rank.textContent = `Rank ${r.result.rank} of ${r.result.of} answers.`;
    $("result").replaceChildren(score, rank);
  } else {
    $("result").textContent = r.status === "not graded" ? `${waiting[r.status]}: ${r.reason}.` : (waiting[r.status] ?? r.status);
  }
  $("status").textContent = `Submitted ${new Date(r.answer.submittedAt).toLocaleString()}.`;
  $("receipt").hidden = false;
} catch (err) {
  $("status").textContent = err instanceof ApiError && err.status === 404 ? "This receipt does not exist." : errorMessage(err);
  $("status").className = "error";
}
