// @ts-check
// The grade page: the form, the live bracket (./live.js), the results. State lives in the DOM and in `texts`.
import { api, ApiError, errorMessage, savedKey, savedKeys, saveKey, useKey } from "./api.js";
import { readAnswersFile } from "./answers-file.js";
import { $ } from "./dom.js";
import { formField } from "./form-fields.js";
import { judgesLine } from "./judges.js";
import { followLive } from "./live.js";
import { drawResults } from "./results.js";

/** @typedef {import("./answers-file.js").Question} Question */
/** @typedef {import("./results.js").Result} Result */
/**
 * What `POST /v1/evaluations` accepts: the input of the service's own schema (the wire contract's).
 * @typedef {import("../../src/contract").EvaluationRequest} EvaluationRequest
 */
/**
 * What `GET /v1/meta` sends (src/api/meta.ts): the choices and limits of that schema.
 * @typedef {Pick<typeof import("../../src/contract"), "methods" | "templates" | "limits">} Meta
 */

/**
 * answer id -> text of the evaluation on screen, until the service's result has them.
 * @type {Map<string, string>}
 */
let texts = new Map();
/** @type {Question[]} */
let importedQuestions = [];
/** @type {AbortController | null} */
let watching = null;

// ---- the key, entered once and kept in this browser
function showKey() {
  const has = Boolean(savedKey());
  $("key-form").hidden = has;
  $("key-saved").hidden = !has;
  $("key-help").hidden = has;
  const choice = $("key-choice", HTMLSelectElement);
  const kept = savedKeys();
  // a key saved before names existed is still the one in use
  if (has && !kept.some((k) => k.key === savedKey())) kept.unshift({ name: "saved key", key: savedKey() });
  choice.replaceChildren(...kept.map((k) => new Option(k.name, k.key, false, k.key === savedKey())));
}
$("key-form").addEventListener("submit", (e) => {
  e.preventDefault();
  saveKey($("api-key", HTMLInputElement).value.trim(), $("key-name", HTMLInputElement).value);
  $("api-key", HTMLInputElement).value = "";
  $("key-name", HTMLInputElement).value = "";
  showKey();
  void showJudges();
  $("question").focus();
});
$("key-choice").addEventListener("change", () => {
  useKey($("key-choice", HTMLSelectElement).value);
  void showJudges();
});

// ---- the judge pool's status, read again every 15 s while the page is open
async function showJudges() {
  const key = savedKey();
  const line = $("judges");
  if (!key) {
    line.hidden = true;
    return;
  }
  try {
    line.textContent = judgesLine(await api("GET", "/v1/judges", { key }));
  } catch (err) {
    line.textContent = `Judge: ${errorMessage(err)}`;
  }
  line.hidden = false;
}
setInterval(() => void showJudges(), 15_000);
$("add-key").addEventListener("click", () => {
  $("key-form").hidden = false;
  $("api-key").focus();
});
$("forget-key").addEventListener("click", () => {
  saveKey("");
  showKey();
  $("api-key").focus();
});

// ---- answers, one per box
/** @param {string | null} [id] */
function addAnswer(text = "", id = null) {
  const li = document.createElement("li");
  const box = document.createElement("textarea");
  box.rows = 2;
  box.value = text;
  if (id) box.dataset.id = id;
  const label = document.createElement("label");
  const remove = document.createElement("button");
  remove.type = "button";
  remove.className = "remove";
  remove.addEventListener("click", () => {
    const next = li.nextElementSibling ?? li.previousElementSibling;
    li.remove();
    renumber();
    next?.querySelector("textarea")?.focus();
  });
  li.append(label, box, remove);
  $("answers").append(li);
  renumber();
  return box;
}
function renumber() {
  [...$("answers").children].forEach((li, i) => {
    // each item is addAnswer's: a label, a box and a remove button
    const box = /** @type {HTMLTextAreaElement} */ (li.querySelector("textarea"));
    box.id = `answer-${i + 1}`;
    const label = /** @type {HTMLLabelElement} */ (li.querySelector("label"));
    label.htmlFor = box.id;
    label.textContent = `Answer ${i + 1}${box.dataset.id ? ` (${box.dataset.id})` : ""}`;
    const remove = /** @type {HTMLButtonElement} */ (li.querySelector("button.remove"));
    remove.textContent = "Remove";
    remove.setAttribute("aria-label", `Remove answer ${i + 1}`);
  });
  const n = collectAnswers().length;
  $("grade-button").textContent = n >= 2 ? `Grade ${n} answers` : "Grade the answers";
}
function collectAnswers() {
  return [...$("answers").querySelectorAll("textarea")]
    .map((box, i) => ({ id: box.dataset.id || `a${i + 1}`, text: box.value }))
    .filter((a) => a.text.trim() !== "");
}
$("add-answer").addEventListener("click", () => addAnswer().focus());
$("answers").addEventListener("input", renumber);

// ---- import from CSV / JSONL
/**
 * @param {string} text
 * @param {string} name
 */
function useImport(text, name) {
  const read = readAnswersFile(text, name);
  if (!read.ok) return showFormError(`Could not read the answers: ${read.reason}.`);
  importedQuestions = read.questions;
  const pick = $("import-question");
  pick.replaceChildren(
    ...read.questions.map((q, i) => new Option(`${q.questionId ?? i + 1}: ${(q.question ?? "").slice(0, 60)}`, String(i))),
  );
  $("import-pick").hidden = read.questions.length < 2;
  fillQuestion(read.questions[0]);
}
/** @param {Question} q */
function fillQuestion(q) {
  if (q.question !== null) $("question", HTMLTextAreaElement).value = q.question;
  if (q.reference !== null) $("reference", HTMLTextAreaElement).value = q.reference;
  if (q.maxScore !== null) $("max-score", HTMLInputElement).value = String(q.maxScore);
  $("answers").replaceChildren();
  for (const a of q.answers) addAnswer(a.text, a.id);
  showFormError(null);
  $("form-error").hidden = true;
  const legend = $("answers-fieldset").querySelector("legend");
  if (legend) legend.textContent = `Answers (${q.answers.length} imported)`;
}
$("import-file").addEventListener("change", async () => {
  const file = $("import-file", HTMLInputElement).files?.[0];
  if (file) useImport(await file.text(), file.name);
});
$("import-paste").addEventListener("click", () => useImport($("import-text", HTMLTextAreaElement).value, ""));
$("import-question").addEventListener("change", () =>
  fillQuestion(importedQuestions[Number($("import-question", HTMLSelectElement).value)]),
);

/**
 * The request the form makes.
 * @param {{ id: string, text: string }[]} answers
 * @returns {EvaluationRequest}
 */
function requestBody(answers) {
  // the choices come from /v1/meta, so they are the schema's
  /** @type {EvaluationRequest} */
  const body = {
    question: $("question", HTMLTextAreaElement).value,
    maxScore: Number($("max-score", HTMLInputElement).value),
    method: /** @type {EvaluationRequest["method"]} */ ($("method", HTMLSelectElement).value),
    template: /** @type {EvaluationRequest["template"]} */ ($("template", HTMLSelectElement).value),
    debias: $("debias", HTMLInputElement).checked,
    answers,
  };
  if ($("reference", HTMLTextAreaElement).value.trim()) body.reference = $("reference", HTMLTextAreaElement).value;
  if ($("feedback", HTMLInputElement).checked) body.feedback = "judge";
  return body;
}

// ---- what grading would take, asked of the service (?dryRun=true) as the form changes
/** @type {ReturnType<typeof setTimeout> | null} */
let estimateTimer = null;
function estimateSoon() {
  if (estimateTimer) clearTimeout(estimateTimer);
  estimateTimer = setTimeout(showEstimate, 600);
}
async function showEstimate() {
  const key = savedKey();
  const answers = collectAnswers();
  if (!key || answers.length < 2 || !$("question", HTMLTextAreaElement).value.trim()) {
    $("estimate").textContent = "";
    return;
  }
  try {
    /** @type {{ judgeCalls: number, feedbackCalls?: number, promptTokens: number, completionTokens: number, seconds: number, basis: { seconds: string } }} */
    const e = await api("POST", "/v1/evaluations?dryRun=true", { key, body: requestBody(answers) });
    const time = e.seconds < 90 ? `${Math.max(1, Math.round(e.seconds))} s` : `${Math.round(e.seconds / 60)} min`;
    $("estimate").textContent =
      `Grading takes about ${e.judgeCalls} judge calls${e.feedbackCalls ? ` and ${e.feedbackCalls} feedback calls` : ""}, ${e.promptTokens + e.completionTokens} tokens and ${time}${e.basis.seconds === "assumed" ? " (at an assumed 2 s a call: no call measured yet)" : ""}.`;
  } catch {
    $("estimate").textContent = ""; // a form still being filled in; the real request says what is wrong
  }
}
$("grade-form").addEventListener("input", estimateSoon);
$("grade-form").addEventListener("change", estimateSoon);

/** @param {string | null} message */
function showFormError(message) {
  $("form-error").textContent = message ?? "";
  $("form-error").hidden = !message;
}

// ---- grading
$("grade-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const key = savedKey();
  if (!key) {
    showFormError("Enter your API key first (above); it is kept in this browser.");
    return $("api-key").focus();
  }
  const answers = collectAnswers();
  if (!$("question", HTMLTextAreaElement).value.trim()) {
    showFormError("Write the question first.");
    return $("question").focus();
  }
  if (answers.length < 2) {
    showFormError("A tournament needs at least two answers.");
    return $("add-answer").focus();
  }
  const ids = new Set();
  for (const a of answers) {
    if (ids.has(a.id)) return showFormError(`Two answers have the id "${a.id}"; ids must differ.`);
    ids.add(a.id);
  }
  const body = requestBody(answers);
  showFormError(null);
  $("grade-button", HTMLButtonElement).disabled = true;
  try {
    /** @type {{ id: string }} the answer of src/api/evaluations.ts */
    const created = await api("POST", "/v1/evaluations", { key, body });
    texts = new Map(answers.map((a) => [a.id, a.text]));
    history.replaceState(null, "", `#${created.id}`);
    watch(created.id, key);
  } catch (err) {
    showFormError(errorMessage(err));
    const refused = err instanceof ApiError && err.status === 400 ? err.problem?.errors : undefined;
    if (refused?.length) {
      // in the form's words, and the focus on the first field at fault
      showFormError(`Please fix: ${refused.map((e) => `${formField(e.field).label}: ${e.reason}`).join("; ")}`);
      const first = formField(refused[0].field);
      const sent = [...$("answers").querySelectorAll("textarea")].filter((box) => box.value.trim() !== "");
      (first.answer !== undefined ? sent[first.answer] : first.id ? document.getElementById(first.id) : null)?.focus();
    }
    if (err instanceof ApiError && err.status === 401) {
      saveKey("");
      showKey();
      $("api-key").focus();
    }
  } finally {
    $("grade-button", HTMLButtonElement).disabled = false;
  }
});

/**
 * Follows an evaluation live (./live.js), then shows its results.
 * @param {string} id
 * @param {string} key
 */
async function watch(id, key) {
  watching?.abort();
  const control = new AbortController();
  watching = control;
  $("results").hidden = true;
  $("share-out").hidden = true;
  if (!(await followLive(id, key, control.signal))) return;
  /** @type {Result} */
  const result = await api("GET", `/v1/evaluations/${encodeURIComponent(id)}`, { key });
  // the texts are the service's: a page reloaded mid-grading has none of its own
  texts = new Map(result.answers.map((a) => [a.id, a.text ?? texts.get(a.id) ?? ""]));
  drawResults($("results-body"), result, texts, { review: true });
  $("results").hidden = false;
  $("share-button").onclick = () => share(id, key);
}

/**
 * @param {string} id
 * @param {string} key
 */
async function share(id, key) {
  try {
    /** @type {{ url: string }} the answer of src/api/shares.ts */
    const link = await api("POST", `/v1/evaluations/${encodeURIComponent(id)}/share`, { key });
    $("share-url", HTMLInputElement).value = link.url;
    $("share-out").hidden = false;
    $("share-url", HTMLInputElement).select();
  } catch (err) {
    alert(errorMessage(err));
  }
}

// ---- start
showKey();
void showJudges();
/** @type {Promise<Meta>} */ (api("GET", "/v1/meta"))
  .then((meta) => {
    $("method").replaceChildren(...meta.methods.map((m) => new Option(m, m)));
    $("template").replaceChildren(...meta.templates.map((t) => new Option(t, t)));
  })
  .catch(() => {});
addAnswer();
addAnswer();
if (location.hash.startsWith("#ev_") && savedKey()) watch(location.hash.slice(1), savedKey());
