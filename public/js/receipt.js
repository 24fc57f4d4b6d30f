// @ts-check
// A submitter's receipt: the token in the URL shows this one answer and, once the teacher has released
// it, its final grade (and its rank, when the collection shows ranks). Before the release the service
// sends nothing of the grade, so there is nothing here to hide.
import { formatScore } from "./score-format.js";
import { api, ApiError, errorMessage } from "./api.js";
import { $ } from "./dom.js";

/**
 * A receipt as `GET /v1/receipts/:token` sends it (the contract's `receipt`, with the fields this page reads).
 * `feedback` comes with the feedback of issue 25 where the answer has some: it is shown as text.
 * @typedef {import("../../src/contract").Receipt & {
 *   status: "collecting" | "grading" | "in review" | "graded" | "failed" | "not graded",
 *   reason?: string,
 *   answer: { text: string, name: string | null, submittedAt: string },
 *   result: null | {
 *     finalScore: number | null, maxScore: number, rank?: number, of?: number,
 *     releasedAt: string, updatedAt: string | null, feedback?: { text: string } | null,
 *   },
 * }} Receipt
 */

const token = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() ?? "");
/** @type {Partial<Record<Receipt["status"], string>>} */
const waiting = {
  collecting: "Submitted. The question is still collecting answers; your grade appears here once the answers are graded and released.",
  grading: "The answers are being graded now. Come back in a little while.",
  "in review": "Your answer is being reviewed by your teacher. Your grade appears here once it is released.",
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
    score.textContent = `${formatScore(r.result.finalScore)} of ${formatScore(r.result.maxScore)} points`;
    const shown = [score];
    if (r.result.updatedAt) {
      const updated = document.createElement("p");
      updated.className = "updated";
      updated.textContent = `Updated ${new Date(r.result.updatedAt).toLocaleString()}.`;
      shown.push(updated);
    }
    if (r.result.feedback?.text) {
      // the judge's or the teacher's words, as text: markup or a link in them shows literally
      const feedback = document.createElement("p");
      feedback.className = "feedback";
      feedback.textContent = r.result.feedback.text;
      shown.push(feedback);
    }
    if (r.result.rank !== undefined) {
      const rank = document.createElement("p");
      rank.textContent = `Rank ${r.result.rank} of ${r.result.of} answers.`;
      shown.push(rank);
    }
    $("result").replaceChildren(...shown);
  } else {
    $("result").textContent = r.status === "not graded" ? `${waiting[r.status]}: ${r.reason}.` : (waiting[r.status] ?? r.status);
  }
  $("status").textContent = `Submitted ${new Date(r.answer.submittedAt).toLocaleString()}.`;
  $("receipt").hidden = false;
} catch (err) {
  $("status").textContent = err instanceof ApiError && err.status === 404 ? "This receipt does not exist." : errorMessage(err);
  $("status").className = "error";
}
