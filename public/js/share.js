// The read-only page of a shared evaluation: the token in the URL is the only thing it can read with.
import { api } from "./api.js";
import { drawResults } from "./results.js";

const $ = (id) => document.getElementById(id);
const token = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() ?? "");
try {
  const view = await api("GET", `/v1/shared/${encodeURIComponent(token)}`);
  $("question").textContent = view.question;
  if (view.reference) {
    $("reference").textContent = view.reference;
    $("reference-block").hidden = false;
  }
  const texts = new Map(view.answers.map((a) => [a.id, a.text]));
  drawResults($("results-body"), { ...view, id: "shared-results" }, texts);
  $("status").textContent = `${view.answers.length} answers, graded${view.completedAt ? ` on ${new Date(view.completedAt).toLocaleString()}` : ""}.`;
  $("shared").hidden = false;
} catch (err) {
  $("status").textContent = err.message;
  $("status").className = "error";
}
