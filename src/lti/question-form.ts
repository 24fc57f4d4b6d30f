import type { CollectionRequest } from "../contract/collection-request";
import { METHOD_NAMES, RELEASE_MODES, TEMPLATE_NAMES } from "../contract/names";
import { escapeHtml, page } from "./pages";

/**
 * The deep linking form: what an instructor types to place a graded question in the course (question,
 * reference, scale, method, prompt, release mode, closing rule), read into the body POST
 * /v1/collections takes, so the collection is checked by the same schema. Pure.
 */
export type QuestionFields = Record<string, string>;

/** The form's fields as a collection request; blanks are left out (the schema's defaults hold). */
export function questionRequestOf(f: QuestionFields, ownOrigin: string): CollectionRequest {
  const text = (name: string) => (f[name] ?? "").trim();
  const number = (name: string) => (text(name) === "" ? undefined : Number(text(name)));
  const deadline = text("deadline");
  return {
    question: f.question ?? "",
    ...(text("reference") ? { reference: f.reference } : {}),
    ...(number("maxScore") !== undefined ? { maxScore: number("maxScore") } : {}),
    ...(text("method") ? { method: text("method") as CollectionRequest["method"] } : {}),
    ...(text("template") ? { template: text("template") as CollectionRequest["template"] } : {}),
    ...(text("release") ? { release: text("release") as CollectionRequest["release"] } : {}),
    ...(text("rubric") ? { rubric: rubricOf(f.rubric) } : {}),
    closing: {
      // a datetime-local field has no zone: the form says it is UTC
      ...(deadline
        ? { deadline: /[zZ]|[+-]\d\d:\d\d$/.test(deadline) ? deadline : `${deadline.length === 16 ? `${deadline}:00` : deadline}Z` }
        : {}),
      ...(number("maxAnswers") !== undefined ? { maxAnswers: number("maxAnswers") } : {}),
    },
    // the LMS shows the question in its own frame: this service's pages are the only place it is answered
    allowedOrigins: [ownOrigin],
  };
}

/**
 * The rubric box: one criterion a line, `name: what it rewards` (the description may be left out); blank
 * lines skipped. Each criterion is worth the question's points, as an evaluation's rubric without maxScores.
 */
export function rubricOf(text: string): { criteria: { name: string; description?: string }[] } {
  const criteria = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "")
    .map((line) => {
      const colon = line.indexOf(":");
      if (colon < 0) return { name: line };
      const description = line.slice(colon + 1).trim();
      return { name: line.slice(0, colon).trim(), ...(description ? { description } : {}) };
    });
  return { criteria };
}

/** The label of a request field, for a refusal shown on the form. */
const LABELS: Record<string, string> = {
  question: "Question",
  reference: "Reference answer",
  maxScore: "Points",
  method: "Method",
  template: "Prompt",
  release: "Grades reach students",
  rubric: "Rubric",
  "closing.deadline": "Deadline",
  "closing.maxAnswers": "Closes after this many answers",
  gradeStep: "Points",
};

export function labelOf(field: string): string {
  // a criterion's problem (rubric.criteria.2.name) is the rubric box's, on its line
  const criterion = field.match(/^rubric\.criteria\.(\d+)/);
  if (criterion) return `Rubric, line ${Number(criterion[1]) + 1}`;
  return LABELS[field] ?? field;
}

const option = (value: string, chosen: string | undefined) =>
  `<option value="${escapeHtml(value)}"${value === chosen ? " selected" : ""}>${escapeHtml(value)}</option>`;

/**
 * The form page. `session` is the page-held token of the deep linking launch; `values` what was typed
 * (shown again with `errors` after a refusal, each naming its field by the form's label).
 */
export function questionFormPage(a: {
  session: string;
  action: string;
  values: QuestionFields;
  errors: { field: string; reason: string }[];
  course: string | null;
}): string {
  const v = (name: string) => escapeHtml(a.values[name] ?? "");
  const errors = a.errors.length
    ? `<div class="error" id="errors" role="alert"><p>Please fix:</p><ul>${a.errors
        .map((e) => `<li>${escapeHtml(labelOf(e.field))}: ${escapeHtml(e.reason)}</li>`)
        .join("")}</ul></div>`
    : "";
  const course = a.course ? `<p>Course: <span id="course">${escapeHtml(a.course)}</span></p>` : "";
  return page(
    "Add a graded question: knockout-judge",
    `<h1>Add a graded question</h1>
${course}${errors}<form method="post" action="${escapeHtml(a.action)}">
<input type="hidden" name="session" value="${escapeHtml(a.session)}">
<label for="question">Question</label><textarea id="question" name="question" required>${v("question")}</textarea>
<label for="reference">Reference answer (optional; students never see it)</label><textarea id="reference" name="reference">${v("reference")}</textarea>
<label for="maxScore">Points (the gradebook column's maximum)</label><input id="maxScore" name="maxScore" type="number" min="0" step="any" value="${v("maxScore") || "10"}">
<label for="method">Method</label><select id="method" name="method">${METHOD_NAMES.map((m) => option(m, a.values.method || "knockout")).join("")}</select>
<label for="template">Prompt</label><select id="template" name="template">${TEMPLATE_NAMES.map((t) => option(t, a.values.template || "exam")).join("")}</select>
<label for="rubric">Rubric (optional, with method "individual": one criterion a line, <code>name: what it rewards</code>)</label><textarea id="rubric" name="rubric">${v("rubric")}</textarea>
<label for="release">Grades reach students</label><select id="release" name="release">${RELEASE_MODES.map((m) => option(m, a.values.release || "manual")).join("")}</select>
<label for="deadline">Deadline (UTC; optional)</label><input id="deadline" name="deadline" type="datetime-local" value="${v("deadline")}">
<label for="maxAnswers">Closes after this many answers (optional; at most what the method grades)</label><input id="maxAnswers" name="maxAnswers" type="number" min="2" step="1" value="${v("maxAnswers")}">
<button type="submit">Add to the course</button>
</form>
<p>"manual": a student sees their grade once you release it; "auto": as soon as it is graded.</p>`,
  );
}

/**
 * The page that hands the signed response to the platform: a form posting `JWT` to the return URL,
 * sent by its one script (allowed by nonce), with a button for a browser that runs none.
 */
export function returnPage(a: { returnUrl: string; jwt: string; scriptNonce: string; title: string }): string {
  return page(
    "Returning to the course: knockout-judge",
    `<h1>Question added</h1>
<p><span id="added">${escapeHtml(a.title)}</span>: returning to your course…</p>
<form id="return" method="post" action="${escapeHtml(a.returnUrl)}">
<input type="hidden" name="JWT" value="${escapeHtml(a.jwt)}">
<button type="submit">Back to the course</button>
</form>
<script nonce="${escapeHtml(a.scriptNonce)}">document.getElementById("return").submit()</script>`,
  );
}
