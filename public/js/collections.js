// @ts-check
// The collections page: the tenant's collections, a form to create one, and one collection with its
// embed snippets, its answers arriving live (GET /v1/collections/:id/events), a button that closes it,
// and, once it is graded, the way to its results and the review page.
import { api, ApiError, errorMessage, savedKey, streamEvents } from "./api.js";
import { $ } from "./dom.js";
import { formField } from "./form-fields.js";

/**
 * @typedef {{ id: string, status: string, question: string, answerCount: number, evaluation: string | null, createdAt: string }} CollectionSummary
 * @typedef {{ id: string, name: string | null, text: string, submittedAt: string }} Arrived
 */

// read in start(): the module is also imported by the unit tests, where there is no localStorage
let key = "";
/** @type {AbortController | null} */
let watching = null;

/**
 * The body of POST /v1/collections from the form's values (pure, for the unit tests).
 * @param {{ question: string, reference: string, maxScore: string, method: string, maxAnswers: string, deadline: string, origins: string }} v
 */
export function collectionRequest(v) {
  /** @type {Record<string, unknown>} */
  const body = {
    question: v.question,
    maxScore: Number(v.maxScore),
    method: v.method,
    allowedOrigins: v.origins
      .split(/[\s,]+/)
      .map((o) => o.trim().replace(/\/+$/, ""))
      .filter(Boolean),
  };
  if (v.reference.trim()) body.reference = v.reference;
  /** @type {Record<string, unknown>} */
  const closing = {};
  if (v.maxAnswers.trim()) closing.maxAnswers = Number(v.maxAnswers);
  if (v.deadline) closing.deadline = new Date(v.deadline).toISOString();
  body.closing = closing;
  return body;
}

/** @param {string} text @param {boolean} [isError] */
function status(text, isError = false) {
  $("status").textContent = text;
  $("status").classList.toggle("error", isError);
}

async function showList() {
  /** @type {{ data: CollectionSummary[] }} */
  const page = await api("GET", "/v1/collections?limit=100", { key });
  const body = /** @type {HTMLElement} */ ($("list").querySelector("tbody"));
  body.replaceChildren(
    ...page.data.map((c) => {
      const tr = document.createElement("tr");
      const q = document.createElement("td");
      const a = document.createElement("a");
      a.href = `/collections?id=${encodeURIComponent(c.id)}`;
      a.textContent = c.question.length > 80 ? `${c.question.slice(0, 80)}…` : c.question;
      q.append(a);
      const cells = [c.status, String(c.answerCount), new Date(c.createdAt).toLocaleString()].map((t) => {
        const td = document.createElement("td");
        td.textContent = t;
        return td;
      });
      tr.append(q, ...cells);
      return tr;
    }),
  );
  $("list-empty").hidden = page.data.length > 0;
}

/** @param {string} id */
async function showOne(id) {
  /** @type {{ id: string, question: string, status: string, embed: { script: string, iframe: string }, evaluation: { id: string } | null, error: string | null }} */
  const c = await api("GET", `/v1/collections/${encodeURIComponent(id)}`, { key });
  $("one").hidden = false;
  $("one-question").textContent = c.question;
  $("one-script", HTMLTextAreaElement).value = c.embed.script;
  $("one-iframe", HTMLTextAreaElement).value = c.embed.iframe;
  $("copy-script").onclick = () => copy("one-script");
  $("copy-iframe").onclick = () => copy("one-iframe");
  $("close-now").onclick = async () => {
    $("close-now", HTMLButtonElement).disabled = true;
    try {
      await api("POST", `/v1/collections/${encodeURIComponent(id)}/close`, { key });
    } catch (err) {
      $("close-now", HTMLButtonElement).disabled = false;
      status(errorMessage(err), true);
    }
  };
  $("one").scrollIntoView({ block: "start" });
  watch(id);
}

/** @param {string} id */
async function copy(id) {
  const box = $(id, HTMLTextAreaElement);
  box.select();
  try {
    await navigator.clipboard.writeText(box.value);
    status("Copied: paste it into your site's page.");
  } catch {
    status("Select the text and copy it (your browser did not let the page copy it).");
  }
}

/** @param {Arrived} a */
function arrivedItem(a) {
  const li = document.createElement("li");
  li.className = "card";
  li.dataset.answer = a.id;
  const who = document.createElement("p");
  who.className = "hint";
  who.textContent = `${a.id}${a.name ? ` · ${a.name}` : ""} · ${new Date(a.submittedAt).toLocaleString()}`;
  const text = document.createElement("p");
  text.className = "answer-text";
  text.textContent = a.text;
  li.append(who, text);
  return li;
}

/**
 * The answers as they arrive, the closing and the grading: one open stream, no polling.
 * @param {string} id
 */
async function watch(id) {
  watching?.abort();
  const control = new AbortController();
  watching = control;
  /** @param {number} n */
  const count = (n) => ($("arrived-count").textContent = `${n} answer${n === 1 ? "" : "s"} so far.`);
  try {
    await streamEvents(
      `/v1/collections/${encodeURIComponent(id)}/events`,
      key,
      /** @type {(name: string, data: any) => void} */ (
        (name, data) => {
          if (name === "snapshot") {
            $("arrived").replaceChildren(...data.answers.map(arrivedItem));
            count(data.answerCount);
            $("one-state").textContent = data.status === "open" ? "Open: taking answers." : `Status: ${data.status}.`;
            $("close-now", HTMLButtonElement).disabled = data.status !== "open";
          } else if (name === "answer") {
            $("arrived").append(arrivedItem(data.answer));
            count(data.answerCount);
          } else if (name === "changed") {
            // a learner from an LMS replaced their answer: its card shows the new text, in its place
            const card = [...$("arrived").children].find((li) => li instanceof HTMLElement && li.dataset.answer === data.answer.id);
            if (card) card.replaceWith(arrivedItem(data.answer));
            else $("arrived").append(arrivedItem(data.answer));
          } else if (name === "closed") {
            $("one-state").textContent = "Closed: no more answers are taken. Grading starts…";
            $("close-now", HTMLButtonElement).disabled = true;
          } else if (name === "graded") {
            graded(data.evaluation);
          } else if (name === "failed") {
            $("one-state").textContent = `Closed, and it could not be graded: ${data.error}`;
            $("close-now", HTMLButtonElement).disabled = true;
          }
        }
      ),
      control.signal,
    );
  } catch (err) {
    if (!control.signal.aborted) status(errorMessage(err), true);
  }
}

/**
 * The grading runs as an evaluation of its own: its progress, then its results and the review page.
 * @param {string} evaluation
 */
async function graded(evaluation) {
  $("one-state").textContent = "Closed: the answers are being graded.";
  const grading = $("grading");
  grading.textContent = "Grading…";
  /** @type {string | null} */
  let ended = null;
  await streamEvents(
    `/v1/evaluations/${encodeURIComponent(evaluation)}/events`,
    key,
    /** @type {(name: string, data: any) => void} */ (
      (name, data) => {
        if (name === "end") ended = data.status;
        else if (data?.progress) grading.textContent = `Grading: ${data.progress.done} of ${data.progress.total} judge calls done.`;
      }
    ),
  ).catch(() => {});
  grading.replaceChildren(
    ended === "completed" ? "Graded. " : `The grading ${ended ?? "stopped"}. `,
    link(`/#${evaluation}`, "See the results"),
    " ",
    link(`/review?id=${encodeURIComponent(evaluation)}`, "Review and grade the answers"),
  );
  $("one-state").textContent = ended === "completed" ? "Closed and graded." : "Closed.";
}

/** @param {string} href @param {string} text */
function link(href, text) {
  const a = document.createElement("a");
  a.href = href;
  a.className = "button";
  a.textContent = text;
  return a;
}

async function start() {
  key = savedKey();
  if (!key) return status("No API key is saved in this browser: save it on the grade page first.", true);
  /** @type {{ methods: string[] }} */ (await api("GET", "/v1/meta").catch(() => ({ methods: ["knockout"] }))).methods.forEach((m, i) => {
    if (i === 0) $("c-method").replaceChildren();
    $("c-method").append(new Option(m, m));
  });
  $("create-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = collectionRequest({
      question: $("c-question", HTMLTextAreaElement).value,
      reference: $("c-reference", HTMLTextAreaElement).value,
      maxScore: $("c-max-score", HTMLInputElement).value,
      method: $("c-method", HTMLSelectElement).value,
      maxAnswers: $("c-max-answers", HTMLInputElement).value,
      deadline: $("c-deadline", HTMLInputElement).value,
      origins: $("c-origins", HTMLTextAreaElement).value,
    });
    $("create-error").hidden = true;
    try {
      /** @type {{ id: string }} */
      const created = await api("POST", "/v1/collections", { key, body });
      history.replaceState(null, "", `/collections?id=${encodeURIComponent(created.id)}`);
      await showList();
      await showOne(created.id);
    } catch (err) {
      const refused = err instanceof ApiError && err.status === 400 ? err.problem?.errors : undefined;
      $("create-error").textContent = refused?.length
        ? `Please fix: ${refused.map((e) => `${collectionLabel(e.field)}: ${e.reason}`).join("; ")}`
        : errorMessage(err);
      $("create-error").hidden = false;
    }
  });
  try {
    await showList();
    const id = new URLSearchParams(location.search).get("id");
    if (id) await showOne(id);
  } catch (err) {
    status(errorMessage(err), true);
  }
}

/** @param {string} field */
function collectionLabel(field) {
  if (field.startsWith("allowedOrigins")) return "Sites that may show the form";
  if (field === "closing.maxAnswers") return "Close after this many answers";
  if (field === "closing.deadline") return "Close at";
  return formField(field).label;
}

if (typeof document !== "undefined" && document.getElementById("create-form")) start();
