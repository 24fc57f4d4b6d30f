// @ts-check
// The review page's release workflow: which answers a teacher has reviewed, which the release buttons
// pick, the count of what students can see, and the warning before answers nobody looked at reach their
// students. A release is the service's (POST/DELETE …/release); after each the page reads the
// evaluation again, so what it shows is what the students get. The pure parts are exported for the unit
// tests; the DOM parts run only in a browser.
import { formatScore } from "./score-format.js";
import { api, errorMessage } from "./api.js";

/** @typedef {import("../../src/contract").ReleaseRequest} ReleaseRequest */
/** @typedef {import("../../src/contract").ReleaseState} ReleaseState */

/**
 * What these helpers read of an answer of `GET /v1/evaluations/:id`.
 * @typedef {{ id: string, review?: null | { reasons: string[] }, teacherScore?: number | null,
 *   finalScore?: number | null, finalFrom?: string | null, releasedAt?: string | null }} ReleasableAnswer
 */

/** The review page's filter: every answer, those the teacher has graded, those they have not. */
export const FILTERS = /** @type {const} */ (["all", "reviewed", "not-reviewed"]);
/** @typedef {(typeof FILTERS)[number]} ReviewFilter */

/**
 * Reviewed means graded by the teacher: the page's agreement line already counts "graded by you" this
 * way, and a grade is the one trace a look at an answer leaves in the service.
 * @param {ReleasableAnswer} a
 */
export const isReviewed = (a) => a.teacherScore !== null && a.teacherScore !== undefined;

/** @param {ReleasableAnswer} a */
export const isReleased = (a) => typeof a.releasedAt === "string";

/** Whether the judge flagged it for a look: it has review reasons. @param {ReleasableAnswer} a */
const isFlagged = (a) => (a.review?.reasons.length ?? 0) > 0;

/**
 * Whether the filter shows this answer.
 * @param {ReviewFilter} filter
 * @param {ReleasableAnswer} a
 */
export function shownBy(filter, a) {
  if (filter === "reviewed") return isReviewed(a);
  if (filter === "not-reviewed") return !isReviewed(a);
  return true;
}

/**
 * The count of what students can see, e.g. "3 of 12 released".
 * @param {readonly ReleasableAnswer[]} answers
 */
export const releaseCount = (answers) => `${answers.filter(isReleased).length} of ${answers.length} released`;

/**
 * The ids "Release every reviewed answer" sends: graded by the teacher and not yet released (releasing
 * a released answer again would change nothing).
 * @param {readonly ReleasableAnswer[]} answers
 */
export const reviewedToRelease = (answers) => answers.filter((a) => isReviewed(a) && !isReleased(a)).map((a) => a.id);

/**
 * The ids "Release all" sends: every answer not yet released.
 * @param {readonly ReleasableAnswer[]} answers
 */
export const allToRelease = (answers) => answers.filter((a) => !isReleased(a)).map((a) => a.id);

/**
 * The confirm() question before a release, or null when there is nothing to warn about: the answers
 * to release that the judge flagged (review reasons) and the teacher has not graded. Their students
 * would get a grade no one has checked.
 * @param {readonly ReleasableAnswer[]} answers
 * @param {readonly string[]} ids
 */
export function releaseWarning(answers, ids) {
  const wanted = new Set(ids);
  const unchecked = answers.filter((a) => wanted.has(a.id) && !isReleased(a) && isFlagged(a) && !isReviewed(a)).length;
  if (unchecked === 0) return null;
  const [these, have, their] =
    unchecked === 1 ? ["1 answer", "has", "its student sees"] : [`${unchecked} answers`, "have", "their students see"];
  return `${these} you are releasing still ${have} review reasons and no grade of yours: ${their} the judge's or the calibrated grade. Release anyway?`;
}

/** Where a final grade came from, in a teacher's words. */
const FROM = /** @type {Record<string, string>} */ ({ teacher: "your grade", calibrated: "calibrated", judge: "the judge's" });

/**
 * What the answer's student gets, and whether they can see it yet.
 * @param {ReleasableAnswer} a
 * @param {number} maxScore
 */
export function releaseLine(a, maxScore) {
  const grade = `Final grade ${formatScore(a.finalScore)} of ${formatScore(maxScore)}${a.finalFrom ? ` (${FROM[a.finalFrom] ?? a.finalFrom})` : ""}`;
  return a.releasedAt ? `${grade}. Released ${new Date(a.releasedAt).toLocaleString()}.` : `${grade}. Not released.`;
}

// ---- the DOM parts (only in a browser)

/**
 * Releases or withdraws `ids` after the warning, if any, is confirmed; true when it was sent.
 * @param {"POST" | "DELETE"} method
 * @param {string} evaluationId
 * @param {readonly ReleasableAnswer[]} answers
 * @param {string[]} ids
 * @param {string} key
 */
async function send(method, evaluationId, answers, ids, key) {
  const warning = method === "POST" ? releaseWarning(answers, ids) : null;
  if (warning && !confirm(warning)) return false;
  /** @type {ReleaseRequest} */
  const body = { answers: ids };
  /** @type {ReleaseState} */
  await api(method, `/v1/evaluations/${encodeURIComponent(evaluationId)}/release`, { key, body });
  return true;
}

/**
 * One answer's line: its final grade, when it was released, and "Release this answer" or "Withdraw
 * release". `reload` reads the evaluation again and draws the page (its focus on this answer's button).
 * @param {{ id: string, maxScore: number, answers: readonly ReleasableAnswer[] }} result
 * @param {ReleasableAnswer} a
 * @param {number} i the answer's place on the page, for its button's id
 * @param {string} key
 * @param {() => Promise<void>} reload
 */
export function releaseRow(result, a, i, key, reload) {
  const row = document.createElement("div");
  row.className = "row release-row";
  const line = document.createElement("p");
  line.className = a.releasedAt ? "released" : "unreleased";
  line.textContent = releaseLine(a, result.maxScore);
  const button = document.createElement("button");
  button.type = "button";
  button.id = `release-${i}`;
  button.textContent = a.releasedAt ? "Withdraw release" : "Release this answer";
  const error = document.createElement("p");
  error.className = "error";
  error.setAttribute("role", "alert");
  error.hidden = true;
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      if (await send(a.releasedAt ? "DELETE" : "POST", result.id, result.answers, [a.id], key)) await reload();
    } catch (err) {
      error.textContent = errorMessage(err);
      error.hidden = false;
    } finally {
      button.disabled = false;
    }
  });
  row.append(line, button, error);
  return row;
}

/**
 * Wires the page's release bar once: the two release buttons and the filter. `current` is the
 * evaluation as last read; `reload` reads it again and draws the page; `redraw` draws it as it is (a
 * new filter).
 * @param {{ current: () => { id: string, answers: readonly ReleasableAnswer[] } | null, key: string,
 *   reload: () => Promise<void>, redraw: () => void }} page
 * @param {{ reviewed: HTMLButtonElement, all: HTMLButtonElement, filter: HTMLSelectElement, message: HTMLElement }} els
 */
export function wireReleaseBar(page, els) {
  /**
   * @param {HTMLButtonElement} button
   * @param {(answers: readonly ReleasableAnswer[]) => string[]} pick
   * @param {string} none what to say when it picks nothing
   */
  const on = (button, pick, none) =>
    button.addEventListener("click", async () => {
      const result = page.current();
      if (!result) return;
      const ids = pick(result.answers);
      els.message.hidden = true;
      if (ids.length === 0) return say(none, false);
      button.disabled = true;
      try {
        if (await send("POST", result.id, result.answers, ids, page.key)) await page.reload();
      } catch (err) {
        say(errorMessage(err), true);
      } finally {
        button.disabled = false;
      }
    });
  /** @param {string} text @param {boolean} isError */
  const say = (text, isError) => {
    els.message.textContent = text;
    els.message.className = isError ? "error" : "hint";
    els.message.setAttribute("role", isError ? "alert" : "status");
    els.message.hidden = false;
  };
  on(els.reviewed, reviewedToRelease, "No reviewed answer is waiting: grade an answer first, or use “Release all”.");
  on(els.all, allToRelease, "Every answer is already released.");
  els.filter.addEventListener("change", () => page.redraw());
}

/**
 * The filter the select holds (anything else reads as all).
 * @param {HTMLSelectElement} select
 * @returns {ReviewFilter}
 */
export function filterOf(select) {
  return /** @type {readonly string[]} */ (FILTERS).includes(select.value) ? /** @type {ReviewFilter} */ (select.value) : "all";
}
