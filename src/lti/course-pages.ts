import type { RosterEntry } from "./memberships";
import { escapeHtml, page } from "./pages";
import type { PassbackState } from "./scores";

/** What the instructor's page says of the course beside the answers: who has not answered, and the gradebook. */
export interface CourseState {
  /** The course's learners without an answer; null when the launches offered no roster or it failed. */
  notAnswered: RosterEntry[] | null;
  /** Why the roster could not be read, in words. */
  rosterError: string | null;
  passback: PassbackState;
  gradebook: { queued: number; posted: number; failed: number };
}

/**
 * The pages a resource link launch lands on, inside the LMS's frame, without script: the learner's (the
 * question, their one answer and its receipt, and once released their grade and feedback) and the
 * instructor's (the answers, and the collection and review pages). Pure: built from views the API reads.
 */

/** A score as the web front prints it (public/js/score-format.js): at most two decimals, no trailing zeros. */
export function scoreText(x: number): string {
  return String(Math.round(x * 100) / 100);
}

/** A receipt as GET /v1/receipts/:token answers it (src/evaluations/receipt-view.ts). */
export interface ReceiptView {
  question: string;
  status: string;
  reason?: string;
  answer: { text: string; submittedAt?: string };
  result: null | {
    finalScore: number | null;
    maxScore: number;
    rank?: number;
    of?: number;
    releasedAt: string;
    updatedAt: string | null;
    feedback: { text: string } | null;
  };
}

const STATUS_WORDS: Record<string, string> = {
  collecting: "Open: you may change your answer until the question closes.",
  "in review": "Closed: your teacher is reviewing the grades.",
  grading: "Closed: being graded.",
  graded: "Graded.",
  "not graded": "Closed, and it could not be graded.",
  failed: "Closed, and the grading failed.",
};

function resultHtml(r: NonNullable<ReceiptView["result"]>): string {
  const score = r.finalScore === null ? "no grade" : `${scoreText(r.finalScore)} of ${scoreText(r.maxScore)}`;
  const rank = r.rank !== undefined ? ` (rank ${r.rank} of ${r.of})` : "";
  const feedback = r.feedback ? `<h3>Feedback</h3><p id="feedback" style="white-space:pre-wrap">${escapeHtml(r.feedback.text)}</p>` : "";
  return `<div class="box" id="result"><h2>Your grade</h2><p><span id="grade">${escapeHtml(score)}</span>${escapeHtml(rank)}</p>${feedback}</div>`;
}

/**
 * The learner's page. `receipt` is null before their first answer; `open` whether it still takes one
 * (the form is shown only then); `receiptUrl` the link of a first answer's receipt, shown once.
 */
export function learnerPage(a: {
  question: string;
  open: boolean;
  receipt: ReceiptView | null;
  session: string;
  action: string;
  who: string | null;
  notice: string | null;
  receiptUrl: string | null;
}): string {
  const r = a.receipt;
  const greeting = a.who ? `<p>Signed in as <span id="who">${escapeHtml(a.who)}</span>.</p>` : "";
  const notice = a.notice ? `<p id="notice" role="status">${escapeHtml(a.notice)}</p>` : "";
  const link = a.receiptUrl
    ? `<p>Your receipt, to keep: <a id="receipt-link" href="${escapeHtml(a.receiptUrl)}" target="_blank" rel="noopener">${escapeHtml(a.receiptUrl)}</a></p>`
    : "";
  const mine = r
    ? `<div class="box" id="receipt"><h2>Your answer</h2><p id="answer" style="white-space:pre-wrap">${escapeHtml(r.answer.text)}</p>
<p><small>Sent ${escapeHtml(r.answer.submittedAt ?? "")}</small></p><p id="status">${escapeHtml(STATUS_WORDS[r.status] ?? r.status)}</p>${
        r.reason ? `<p>${escapeHtml(r.reason)}</p>` : ""
      }</div>${r.result ? resultHtml(r.result) : ""}`
    : "";
  const form = a.open
    ? `<form method="post" action="${escapeHtml(a.action)}">
<input type="hidden" name="session" value="${escapeHtml(a.session)}">
<label for="text">${r ? "Change your answer" : "Your answer"}</label><textarea id="text" name="text" required>${r ? escapeHtml(r.answer.text) : ""}</textarea>
<button type="submit">${r ? "Send the new answer" : "Send the answer"}</button>
</form>`
    : r
      ? ""
      : `<p id="status">This question is closed: it no longer takes answers.</p>`;
  return page(
    "Question: knockout-judge",
    `<h1>Question</h1>
${greeting}<p id="question" style="white-space:pre-wrap">${escapeHtml(a.question)}</p>
${notice}${link}${mine}${form}`,
  );
}

/** One answer as the instructor's page lists it (GET /v1/collections/:id's answers). */
export interface InstructorAnswer {
  id: string;
  name: string | null;
  text: string;
  finalScore?: number | null;
  releasedAt?: string | null;
}

/**
 * The instructor's page: the question, where it stands, the answers, and links to the collection's page
 * and (once graded) the review page with its release controls, in a new window. The links carry a key
 * limited to this collection, in their fragment (never sent to a server or in a Referer).
 */
export function instructorPage(a: {
  question: string;
  status: string;
  answers: InstructorAnswer[];
  maxScore: number;
  collectionUrl: string;
  reviewUrl: string | null;
  expiresAt: string;
  who: string | null;
  course?: CourseState;
}): string {
  const rows = a.answers
    .map(
      (x) =>
        `<tr><td>${escapeHtml(x.name ?? "")}</td><td style="white-space:pre-wrap">${escapeHtml(x.text)}</td><td>${
          x.finalScore === undefined || x.finalScore === null ? "" : escapeHtml(`${scoreText(x.finalScore)} / ${scoreText(a.maxScore)}`)
        }</td><td>${x.releasedAt ? "released" : x.releasedAt === null ? "not released" : ""}</td></tr>`,
    )
    .join("\n");
  const review = a.reviewUrl
    ? `<p><a id="review-link" href="${escapeHtml(a.reviewUrl)}" target="_blank" rel="noopener">Review the grades and release them</a></p>`
    : `<p>The review page and the release controls open once the answers are graded.</p>`;
  return page(
    "Answers: knockout-judge",
    `<h1>Your question's answers</h1>
${a.who ? `<p>Signed in as <span id="who">${escapeHtml(a.who)}</span> (instructor).</p>` : ""}<p id="question" style="white-space:pre-wrap">${escapeHtml(a.question)}</p>
<p>Status: <span id="status">${escapeHtml(a.status)}</span>; <span id="count">${a.answers.length}</span> answer(s).</p>
<table id="answers"><thead><tr><th>Name</th><th>Answer</th><th>Grade</th><th>Release</th></tr></thead><tbody>
${rows}
</tbody></table>
<p><a id="collection-link" href="${escapeHtml(a.collectionUrl)}" target="_blank" rel="noopener">Open the collection's page</a></p>
${a.course ? courseSection(a.course) : ""}${review}<p><small>These links work until ${escapeHtml(a.expiresAt)}; launch the activity again for new ones.</small></p>`,
  );
}

const PASSBACK_WORDS: Record<CourseState["passback"], string> = {
  on: "Released grades go to the course's gradebook by themselves.",
  off: "",
  "no-line-item": "The course gave this activity no gradebook column: grades stay here.",
  "no-score-scope": "The LMS did not allow this tool to post scores: grades stay here. Ask your LMS admin to grant the score scope.",
};

/** Who has not answered (from the course's roster) and what the gradebook received. */
function courseSection(c: CourseState): string {
  const roster =
    c.notAnswered === null
      ? c.rosterError
        ? `<p id="roster-error">The course's list of learners could not be read: ${escapeHtml(c.rosterError)}.</p>`
        : ""
      : c.notAnswered.length === 0
        ? `<p id="not-answered">Every learner of the course has answered.</p>`
        : `<h2>Not answered yet (${c.notAnswered.length})</h2><ul id="not-answered">${c.notAnswered
            .map((e) => `<li>${escapeHtml(e.name ?? e.userId)}</li>`)
            .join("")}</ul>`;
  const g = c.gradebook;
  const gradebook =
    c.passback === "off"
      ? ""
      : `<p id="gradebook">${escapeHtml(PASSBACK_WORDS[c.passback])}${
          c.passback === "on" ? ` Gradebook: ${g.posted} posted, ${g.queued} waiting, ${g.failed} refused.` : ""
        }</p>`;
  return roster + gradebook;
}
