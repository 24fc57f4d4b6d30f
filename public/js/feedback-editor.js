// @ts-check
// The review page's editor of an answer's feedback for its student: the judge's text (or why there is
// none) in a box the teacher edits; Save sends PUT …/feedback, and the service keeps every version.
// Feedback is text, never markup: it goes in a textarea's value and comes back out of it as text.
import { api, errorMessage } from "./api.js";

/** @typedef {import("../../src/contract").Feedback} Feedback */

/**
 * @param {{ id: string }} result the evaluation
 * @param {{ id: string, feedback?: Feedback | null, feedbackError?: string }} answer
 * @param {number} i the card's position (for unique ids)
 * @param {string} key
 * @param {(saved: Feedback) => void} [onSaved]
 */
export function feedbackEditor(result, answer, i, key, onSaved) {
  const form = document.createElement("form");
  form.className = "feedback-form";
  const label = document.createElement("label");
  label.htmlFor = `feedback-${i}`;
  const from = (/** @type {Feedback | null | undefined} */ f) =>
    f ? ` (${f.from === "teacher" ? "edited by you" : "written by the judge"})` : "";
  label.textContent = `Feedback for the student of ${answer.id}${from(answer.feedback)}`;
  const box = document.createElement("textarea");
  box.id = `feedback-${i}`;
  box.rows = 3;
  box.maxLength = 5000;
  box.value = answer.feedback?.text ?? "";
  if (!answer.feedback && answer.feedbackError) box.placeholder = `No feedback: ${answer.feedbackError}`;
  const save = document.createElement("button");
  save.type = "submit";
  save.textContent = "Save feedback";
  const status = document.createElement("p");
  status.setAttribute("role", "status");
  status.className = "hint";
  form.append(label, box, save, status);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    status.classList.remove("error");
    if (!box.value.trim()) {
      status.textContent = "Write the feedback first.";
      status.classList.add("error");
      return box.focus();
    }
    try {
      /** @type {{ feedback: Feedback }} */
      const saved = await api("PUT", `/v1/evaluations/${encodeURIComponent(result.id)}/answers/${encodeURIComponent(answer.id)}/feedback`, {
        key,
        body: { text: box.value },
      });
      box.value = saved.feedback.text;
      label.textContent = `Feedback for the student of ${answer.id}${from(saved.feedback)}`;
      status.textContent = "Feedback saved.";
      onSaved?.(saved.feedback);
    } catch (err) {
      status.textContent = errorMessage(err);
      status.classList.add("error");
    }
  });
  return form;
}
