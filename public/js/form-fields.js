// @ts-check
// The grade form's fields by the API's names: a refusal names `maxScore` or `answers[2].text`; the
// teacher sees "Points" and "Answer 3", and the focus goes to that field.

/** @typedef {{ label: string, id?: string, answer?: number }} FormField */

/** @type {Record<string, FormField>} */
const FIELDS = {
  question: { label: "Question", id: "question" },
  reference: { label: "Reference answer", id: "reference" },
  maxScore: { label: "Points", id: "max-score" },
  method: { label: "Method", id: "method" },
  template: { label: "Prompt", id: "template" },
  debias: { label: "Debias", id: "debias" },
  answers: { label: "Answers", id: "add-answer" },
};

/**
 * The form field an API field names: its label, and the element id (or the index among the answers sent).
 * @param {string} field
 * @returns {FormField}
 */
export function formField(field) {
  const answer = /^answers\[(\d+)\]/.exec(field);
  if (answer) return { label: `Answer ${Number(answer[1]) + 1}`, answer: Number(answer[1]) };
  return FIELDS[field.split(/[.[]/)[0]] ?? { label: field };
}
