// @ts-check
// The live section of the grade page: an evaluation's bracket, progress and cost as it is judged,
// from its event stream.
import { ApiError, streamEvents } from "./api.js";
import { drawBracket } from "./bracket.js";
import { $ } from "./dom.js";

/** @typedef {import("../../src/contract").LiveView} LiveView */
/** @typedef {Pick<LiveView, "status" | "error">} LiveEnd */
/**
 * The live stream's events (durable-objects/viewers.ts): the whole view first, then the view with only
 * the matches that changed, and at last how it ended.
 * @typedef {["snapshot", LiveView] | ["progress", Omit<LiveView, "answerIds">] | ["end", LiveEnd]
 *   | ["match-text", { match: number, call: number, text: string }] | ["feedback", FeedbackEvent]} LiveEvent
 */
/** @typedef {Extract<import("../../src/contract").EvaluationEvent, [event: "feedback", data: unknown]>[1]} FeedbackEvent */

/**
 * Follows an evaluation live: one open event stream, reopened if it breaks (never a polling loop),
 * drawn in the page's live section. Resolves true when the evaluation completed, false when it failed,
 * the stream was lost or `signal` stopped the watching (the section then says why).
 * @param {string} id
 * @param {string} key
 * @param {AbortSignal} signal
 * @returns {Promise<boolean>}
 */
export async function followLive(id, key, signal) {
  $("live").hidden = false;
  $("bracket").classList.remove("stopped");
  // assigned in the event callback, where narrowing does not look: typed by the casts, not by the nulls
  let view = /** @type {LiveView | null} */ (null);
  let ended = /** @type {LiveEnd | null} */ (null);
  /** @type {Map<number, string>} the judge's words so far, by match */
  const words = new Map();
  /** @type {Map<string, FeedbackEvent>} each student's feedback as it arrives, by answer id */
  const feedback = new Map();
  $("feedback-list").replaceChildren();
  $("live-feedback").hidden = true;
  setStatus("Starting the tournament…");
  $("live").scrollIntoView({ block: "start" });
  // a stream that breaks (the object restarted, the network blinked) is reopened after a growing pause;
  // one that carried news before breaking starts the count again, so a long tournament may reconnect often
  for (let attempt = 0; !ended && attempt < 6 && !signal.aborted; attempt++) {
    if (attempt) await new Promise((r) => setTimeout(r, 500 * 2 ** attempt));
    let news = false;
    try {
      await streamEvents(
        `/v1/evaluations/${encodeURIComponent(id)}/events`,
        key,
        /** @type {(...event: LiveEvent) => void} */ (
          (name, data) => {
            if (name === "match-text") words.set(data.match, data.text);
            else if (name === "feedback") {
              feedback.set(data.answerId, data);
              drawFeedback(feedback);
            } else if (name === "snapshot") view = data;
            else if (name === "progress" && view) {
              news = true;
              const byIndex = new Map(view.matches.map((m) => [m.index, m]));
              for (const m of data.matches) byIndex.set(m.index, m);
              view = { ...view, ...data, matches: [...byIndex.values()] };
            } else if (name === "end") ended = data;
            if (view) drawLive(view, words);
          }
        ),
        signal,
      );
    } catch (err) {
      if (signal.aborted) return false;
      if (err instanceof ApiError && err.status !== 503) return failWith(err.message);
    }
    if (news) attempt = 0;
  }
  if (signal.aborted) return false;
  if (!ended) return failWith("Lost the connection to the live tournament. Reload the page to see where it stands.");
  if (ended.status !== "completed") {
    $("bracket").classList.add("stopped");
    return failWith(`The evaluation ${ended.status === "cancelled" ? "was cancelled" : `failed: ${judgeMessage(ended.error)}`}`);
  }
  const method = /** @type {LiveView | null} */ (view)?.method ?? "knockout";
  setStatus(
    method === "individual"
      ? "Done: every answer is graded."
      : method === "knockout"
        ? "Done: every match is decided."
        : "Done: every match is judged.",
  );
  return true;
}

/** @param {string | null} error */
function judgeMessage(error) {
  if (/judge (unreachable|did not answer|answered 5\d\d)/.test(error ?? ""))
    return `the judge is down or not answering (${error}). Try again later.`;
  return error ?? "unknown error";
}

/**
 * @param {LiveView} view
 * @param {ReadonlyMap<number, string>} [words]
 */
function drawLive(view, words) {
  const { done, total } = view.progress;
  $("live-progress", HTMLProgressElement).max = Math.max(1, total);
  $("live-progress", HTMLProgressElement).value = done;
  const judging = view.status === "running" || view.status === "queued";
  // after the tournament, the feedback calls: one per answer
  const writing = judging && view.feedback && done >= total;
  $("live-count").textContent = writing
    ? `Writing feedback: ${view.feedback?.done} of ${view.feedback?.total} students done`
    : judging
      ? `Judging: ${done} of ${total} judge calls done`
      : "";
  // the live region speaks when the judging starts and ends, not on every call
  if (judging && $("live-status").textContent !== "Judging…") setStatus("Judging…");
  const u = view.usage;
  $("live-usage").textContent = `Calls spent: ${u.judgeCalls} · retries ${u.retries} · tokens ${u.promptTokens + u.completionTokens}`;
  drawBracket($("bracket"), view, words);
}

/**
 * Each student's feedback as text, never markup: what a judge wrote is data, and a reply that tries
 * to write an element or a link shows literally.
 * @param {ReadonlyMap<string, FeedbackEvent>} feedback
 */
function drawFeedback(feedback) {
  $("live-feedback").hidden = feedback.size === 0;
  const items = [...feedback.values()].map((f) => {
    const li = document.createElement("li");
    li.dataset.id = f.answerId;
    const who = document.createElement("strong");
    who.textContent = f.answerId;
    const text = document.createElement("span");
    text.className = f.feedback ? "feedback-text" : "feedback-text error";
    text.textContent = f.feedback ? f.feedback.text : `No feedback: ${f.error ?? "the judge wrote none"}`;
    li.append(who, ": ", text);
    return li;
  });
  $("feedback-list").replaceChildren(...items);
}

/** @param {string} text */
function setStatus(text, isError = false) {
  $("live-status").textContent = text;
  $("live-status").classList.toggle("error", isError);
}

/** @param {string} text */
function failWith(text) {
  setStatus(text, true);
  return false;
}
