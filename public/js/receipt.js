// A submitter's receipt: the token in the URL shows this one answer and, once graded, its score and rank.
import { api } from "./api.js";

const $ = (id) => document.getElementById(id);
const token = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() ?? "");
const fmt = (x) => (Number.isInteger(x) ? String(x) : x.toFixed(2).replace(/0+$/, ""));

const waiting = {
  collecting: "The question is still collecting answers. Your score and rank appear here once it closes and the answers are graded.",
  grading: "The answers are being graded now. Come back in a little while.",
  failed: "Grading could not be completed; the organiser can see why.",
  "not graded": "The answers were not graded",
};

try {
  const r = await api("GET", `/v1/receipts/${encodeURIComponent(token)}`);
  $("question").textContent = r.question;
  $("answer").textContent = r.answer.text;
  if (r.answer.name) $("answer").append(document.createElement("br"), `— ${r.answer.name}`);
  if (r.result) {
    const score = document.createElement("p");
    score.className = "big";
    score.textContent = `${fmt(r.result.score)} of ${fmt(r.result.maxScore)} points`;
    const rank = document.createElement("p");
    rank.textContent = `Rank ${r.result.rank} of ${r.result.of} answers.`;
    $("result").replaceChildren(score, rank);
  } else {
    $("result").textContent = r.status === "not graded" ? `${waiting[r.status]}: ${r.reason}.` : waiting[r.status] ?? r.status;
  }
  $("status").textContent = `Submitted ${new Date(r.answer.submittedAt).toLocaleString()}.`;
  $("receipt").hidden = false;
} catch (err) {
  $("status").textContent = err.status === 404 ? "This receipt does not exist." : err.message;
  $("status").className = "error";
}
