// @ts-check
// The read-only page of a shared evaluation: the token in the URL is the only thing it can read with.
import { api, errorMessage } from "./api.js";
import { $ } from "./dom.js";
import { drawResults } from "./results.js";

/** @typedef {import("../../src/contract").AnswerView} AnswerView */
/** @typedef {import("./results.js").Result} Result */
/**
 * A shared evaluation as `GET /v1/shared/:token` sends it: its result, the question and the answers'
 * texts (src/api/shares.ts builds it inline, with no type of its own to import).
 * @typedef {Omit<Result, "answers"> & { question: string, reference: string | null, answers: (AnswerView & { text: string })[], completedAt?: string }} SharedView
 */

const token = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() ?? "");
try {
  /** @type {SharedView} */
  const view = await api("GET", `/v1/shared/${encodeURIComponent(token)}`);
  $("question").textContent = view.question;
  if (view.reference) {
    $("reference").textContent = view.reference;
    $("reference-block").hidden = false;
  }
  const texts = new Map(view.answers.map((a) => [a.id, a.text]));
  drawResults($("results-body"), { ...view, id: "shared-results" }, texts);
  $("status").textContent =
    `${view.answers.length} answers, graded${view.completedAt ? ` on ${new Date(view.completedAt).toLocaleString()}` : ""}.`;
  $("shared").hidden = false;
} catch (err) {
  $("status").textContent = errorMessage(err);
  $("status").className = "error";
}
