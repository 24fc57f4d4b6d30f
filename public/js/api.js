// @ts-check
// Talking to the service from the browser: JSON with the key, problems as readable errors, and the
// live event stream read from a fetch body (EventSource cannot send an Authorization header).

/** @typedef {import("../../src/contract").Problem} Problem */

export class ApiError extends Error {
  /**
   * @param {number} status 0 when the service could not be reached
   * @param {string} detail
   * @param {Problem | null} [problem] the body of the refusal, null when it was not JSON
   */
  constructor(status, detail, problem) {
    super(detail);
    this.status = status;
    this.problem = problem;
  }
}

const KEY = "knockout-judge.key";
const KEYS = "knockout-judge.keys";
const HANDED = "knockout-judge.handed-key";

/**
 * A key handed to this page in its address's fragment (`#key=…`): an LMS instructor's, from their
 * launch, limited to one collection and expiring in hours (docs/lti.md). A fragment never reaches a
 * server nor a Referer. The key is kept for this tab only (sessionStorage), never among the teacher's
 * saved keys, and the fragment is taken off the address, so it is not bookmarked or passed on.
 * @returns {string | null}
 */
function handedKey() {
  const handed = location.hash.match(/^#key=([^&]+)$/);
  if (handed) {
    sessionStorage.setItem(HANDED, decodeURIComponent(handed[1]));
    history.replaceState(null, "", location.pathname + location.search);
  }
  return sessionStorage.getItem(HANDED);
}

/** The key in use: one handed to this tab by an LMS launch, else the one kept in this browser. */
export const savedKey = () => handedKey() ?? localStorage.getItem(KEY) ?? "";

/**
 * Every key kept in this browser, by the name the teacher gave it (a course, say).
 * @returns {{ name: string, key: string }[]}
 */
export function savedKeys() {
  try {
    const list = JSON.parse(localStorage.getItem(KEYS) ?? "[]");
    return Array.isArray(list) ? list.filter((k) => typeof k?.name === "string" && typeof k?.key === "string") : [];
  } catch {
    return [];
  }
}

/**
 * Keeps `key` under `name` and makes it the one in use; an empty key forgets the one in use.
 * @param {string} key
 * @param {string} [name]
 */
export function saveKey(key, name) {
  const others = savedKeys().filter((k) => k.key !== (key || savedKey()));
  if (!key && sessionStorage.getItem(HANDED) !== null) {
    // a refused handed key (expired): forgotten, the browser's own keys untouched
    sessionStorage.removeItem(HANDED);
    return;
  }
  if (!key) {
    localStorage.setItem(KEYS, JSON.stringify(others));
    return others[0] ? localStorage.setItem(KEY, others[0].key) : localStorage.removeItem(KEY);
  }
  // a key the teacher enters or picks wins over one handed to the tab
  sessionStorage.removeItem(HANDED);
  localStorage.setItem(KEYS, JSON.stringify([...others, { name: name?.trim() || `key ${others.length + 1}`, key }]));
  localStorage.setItem(KEY, key);
}

/** Makes a kept key the one in use. @param {string} key */
export const useKey = (key) => {
  sessionStorage.removeItem(HANDED);
  localStorage.setItem(KEY, key);
};

/**
 * The response's JSON. T is what the caller expects the route to send: the service's own types, from src/.
 * @template T
 * @param {string} method
 * @param {string} path
 * @param {{ key?: string, body?: unknown }} [options]
 * @returns {Promise<T>}
 */
export async function api(method, path, { key, body } = {}) {
  /** @type {Record<string, string>} */
  const headers = {};
  if (key) headers.authorization = `Bearer ${key}`;
  if (body !== undefined) headers["content-type"] = "application/json";
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError(0, "The service could not be reached. Check your connection and try again.");
  }
  const text = await response.text();
  let json = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  if (!response.ok) throw new ApiError(response.status, explain(response.status, json), json);
  return json;
}

/**
 * A problem as a sentence for people: what went wrong and what to do.
 * @param {number} status
 * @param {Problem | null | undefined} problem
 */
export function explain(status, problem) {
  const detail = problem?.detail ?? "";
  if (status === 401) return `That API key was not accepted (${detail || "unauthorized"}). Enter a valid key.`;
  if (status === 400 && problem?.errors?.length) return `Please fix: ${problem.errors.map((e) => `${e.field}: ${e.reason}`).join("; ")}`;
  if (status === 429) return `Too many requests: ${detail || "slow down"}. Try again in a minute.`;
  if (status === 503) return `The service cannot grade right now: ${detail || "unavailable"}.`;
  return detail || `The request failed (HTTP ${status}).`;
}

/**
 * What to tell people about a failure: an ApiError's sentence, any other error's message.
 * @param {unknown} err
 */
export const errorMessage = (err) => (err instanceof Error ? err.message : String(err));

/**
 * Calls onEvent(name, data) for each server-sent event until the stream ends. Not a polling loop: one
 * request stays open and the server pushes. Resolves when the server closes the stream.
 * @template {[name: string, data: unknown]} Event what the caller expects the stream to send
 * @param {string} path
 * @param {string} key
 * @param {(...event: Event) => void} onEvent
 * @param {AbortSignal} [signal]
 */
export async function streamEvents(path, key, onEvent, signal) {
  const response = await fetch(path, { headers: { authorization: `Bearer ${key}`, accept: "text/event-stream" }, signal });
  if (!response.ok) {
    const json = await response.json().catch(() => null);
    throw new ApiError(response.status, explain(response.status, json), json);
  }
  // no body: nothing was sent, as if the stream had ended at once
  if (!response.body) return;
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value.replace(/\r\n/g, "\n");
    for (let cut = buffer.indexOf("\n\n"); cut >= 0; cut = buffer.indexOf("\n\n")) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      let name = "message";
      const data = [];
      for (const line of block.split("\n")) {
        if (line.startsWith("event:")) name = line.slice(6).trim();
        else if (line.startsWith("data:")) data.push(line.slice(5).trimStart());
      }
      if (data.length) onEvent(.../** @type {Event} */ ([name, JSON.parse(data.join("\n"))]));
    }
  }
}
