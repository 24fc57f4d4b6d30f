// The grade page: the form, the live bracket, the results. State lives in the DOM and in `texts`.
import { api, ApiError, savedKey, saveKey, streamEvents } from "./api.js";
import { readAnswersFile } from "./answers-file.js";
import { drawBracket } from "./bracket.js";
import { drawResults } from "./results.js";

const $ = (id) => document.getElementById(id);
/** answer id -> text of the evaluation on screen (the service does not send texts back). */
let texts = new Map();
let importedQuestions = [];
let watching = null;

// ---- the key, entered once and kept in this browser
function showKey() {
  const has = Boolean(savedKey());
  $("key-form").hidden = has;
  $("key-saved").hidden = !has;
}
$("key-form").addEventListener("submit", (e) => {
  e.preventDefault();
  saveKey($("api-key").value.trim());
  $("api-key").value = "";
  showKey();
  $("question").focus();
});
$("forget-key").addEventListener("click", () => {
  saveKey("");
  showKey();
  $("api-key").focus();
});

// ---- answers, one per box
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
    const box = li.querySelector("textarea");
    box.id = `answer-${i + 1}`;
    const label = li.querySelector("label");
    label.htmlFor = box.id;
    label.textContent = `Answer ${i + 1}${box.dataset.id ? ` (${box.dataset.id})` : ""}`;
    const remove = li.querySelector("button.remove");
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
function useImport(text, name) {
  const read = readAnswersFile(text, name);
  if (!read.ok) return showFormError(`Could not read the answers: ${read.reason}.`);
  importedQuestions = read.questions;
  const pick = $("import-question");
  pick.replaceChildren(...read.questions.map((q, i) => new Option(`${q.questionId ?? i + 1}: ${(q.question ?? "").slice(0, 60)}`, String(i))));
  $("import-pick").hidden = read.questions.length < 2;
  fillQuestion(read.questions[0]);
}
function fillQuestion(q) {
  if (q.question !== null) $("question").value = q.question;
  if (q.reference !== null) $("reference").value = q.reference;
  if (q.maxScore !== null) $("max-score").value = String(q.maxScore);
  $("answers").replaceChildren();
  for (const a of q.answers) addAnswer(a.text, a.id);
  showFormError(null);
  $("form-error").hidden = true;
  $("answers-fieldset").querySelector("legend").textContent = `Answers (${q.answers.length} imported)`;
}
$("import-file").addEventListener("change", async (e) => {
  const file = e.target.files[0];
  if (file) useImport(await file.text(), file.name);
});
$("import-paste").addEventListener("click", () => useImport($("import-text").value, ""));
$("import-question").addEventListener("change", (e) => fillQuestion(importedQuestions[Number(e.target.value)]));

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
  if (!$("question").value.trim()) return showFormError("Write the question first."), $("question").focus();
  if (answers.length < 2) return showFormError("A tournament needs at least two answers."), $("add-answer").focus();
  const ids = new Set();
  for (const a of answers) {
    if (ids.has(a.id)) return showFormError(`Two answers have the id "${a.id}"; ids must differ.`);
    ids.add(a.id);
  }
  const body = {
    question: $("question").value,
    maxScore: Number($("max-score").value),
    method: $("method").value,
    template: $("template").value,
    debias: $("debias").checked,
    answers,
  };
  if ($("reference").value.trim()) body.reference = $("reference").value;
  showFormError(null);
  $("grade-button").disabled = true;
  try {
    const created = await api("POST", "/v1/evaluations", { key, body });
    texts = new Map(answers.map((a) => [a.id, a.text]));
    history.replaceState(null, "", `#${created.id}`);
    watch(created.id, key);
  } catch (err) {
    showFormError(err.message);
    if (err instanceof ApiError && err.status === 401) {
      saveKey("");
      showKey();
      $("api-key").focus();
    }
  } finally {
    $("grade-button").disabled = false;
  }
});

/** Follows an evaluation live: one open event stream, reopened if it breaks (never a polling loop). */
async function watch(id, key) {
  watching?.abort();
  const control = new AbortController();
  watching = control;
  $("live").hidden = false;
  $("results").hidden = true;
  $("share-out").hidden = true;
  $("bracket").classList.remove("stopped");
  let view = null;
  let ended = null;
  setStatus("Starting the tournament…");
  $("live").scrollIntoView({ block: "start" });
  // a stream that breaks (the object restarted, the network blinked) is reopened after a growing pause;
  // one that carried news before breaking starts the count again, so a long tournament may reconnect often
  for (let attempt = 0; !ended && attempt < 6 && !control.signal.aborted; attempt++) {
    if (attempt) await new Promise((r) => setTimeout(r, 500 * 2 ** attempt));
    let news = false;
    try {
      await streamEvents(`/v1/evaluations/${encodeURIComponent(id)}/events`, key, (name, data) => {
        if (name === "snapshot") view = data;
        else if (name === "progress" && view) {
          news = true;
          const byIndex = new Map(view.matches.map((m) => [m.index, m]));
          for (const m of data.matches) byIndex.set(m.index, m);
          view = { ...view, ...data, matches: [...byIndex.values()] };
        } else if (name === "end") ended = data;
        if (view) drawLive(view);
      }, control.signal);
    } catch (err) {
      if (control.signal.aborted) return;
      if (err instanceof ApiError && err.status !== 503) return setStatus(err.message, true);
    }
    if (news) attempt = 0;
  }
  if (!ended) return setStatus("Lost the connection to the live tournament. Reload the page to see where it stands.", true);
  if (ended.status === "failed") {
    $("bracket").classList.add("stopped");
    return setStatus(`The evaluation failed: ${judgeMessage(ended.error)}`, true);
  }
  setStatus("Done: every match is decided.");
  const result = await api("GET", `/v1/evaluations/${encodeURIComponent(id)}`, { key });
  drawResults($("results-body"), result, texts);
  $("results").hidden = false;
  $("share-button").onclick = () => share(id, key);
}

function judgeMessage(error) {
  if (/judge (unreachable|did not answer|answered 5\d\d)/.test(error ?? "")) return `the judge is down or not answering (${error}). Try again later.`;
  return error ?? "unknown error";
}

function drawLive(view) {
  const { done, total } = view.progress;
  $("live-progress").max = Math.max(1, total);
  $("live-progress").value = done;
  if (view.status === "running" || view.status === "queued") setStatus(`Judging: ${done} of ${total} judge calls done`);
  const u = view.usage;
  $("live-usage").textContent = `Calls spent: ${u.judgeCalls} · retries ${u.retries} · tokens ${u.promptTokens + u.completionTokens}`;
  drawBracket($("bracket"), view);
}

function setStatus(text, isError = false) {
  $("live-status").textContent = text;
  $("live-status").classList.toggle("error", isError);
}

async function share(id, key) {
  try {
    const link = await api("POST", `/v1/evaluations/${encodeURIComponent(id)}/share`, { key });
    $("share-url").value = link.url;
    $("share-out").hidden = false;
    $("share-url").select();
  } catch (err) {
    alert(err.message);
  }
}

// ---- start
showKey();
api("GET", "/v1/meta")
  .then((meta) => {
    $("method").replaceChildren(...meta.methods.map((m) => new Option(m, m)));
    $("template").replaceChildren(...meta.templates.map((t) => new Option(t, t)));
  })
  .catch(() => {});
addAnswer();
addAnswer();
if (location.hash.startsWith("#ev_") && savedKey()) watch(location.hash.slice(1), savedKey());
