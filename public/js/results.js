// @ts-check
// The finished evaluation: ranking, score distribution, every match with the judge's explanation,
// and downloads. The pure parts (histogram, CSV) are exported for the unit tests.
import { formatScore } from "./score-format.js";
import { csvCell } from "./answers-file.js";
import { roundTitle } from "./bracket.js";
import { diagnosticsSection } from "./judge-diagnostics.js";
import { panelSection } from "./panel-report.js";

/** @typedef {import("../../src/contract").AnswerView} AnswerView */
/** @typedef {import("../../src/contract").MatchView} MatchView */
/** @typedef {{ champion: string | null, answers: AnswerView[], matches: MatchView[] }} Outcome */
/**
 * An evaluation's result as the service sends it (`GET /v1/evaluations/:id`, a shared link): its outcome,
 * scale and method; the answers with their texts where the service sends them.
 * A panel of judges' result has its `panel`: each judge against the panel, and its own diagnostics.
 * @typedef {Outcome & { id?: string, maxScore: number, method?: string, judgeDiagnostics?: import("../../src/contract").JudgeDiagnosticsView, panel?: import("../../src/contract").Evaluation["panel"] }} Result
 */

/**
 * Equal-width bins over 0..max; a score equal to max falls in the last bin.
 * @param {(number | null | undefined)[]} scores
 * @param {number} max
 */
export function histogram(scores, max, binCount = Math.min(10, Math.max(1, Math.ceil(max)))) {
  const width = max / binCount;
  const bins = Array.from({ length: binCount }, (_, i) => ({ from: i * width, to: (i + 1) * width, count: 0 }));
  for (const s of scores) {
    if (s === null || s === undefined || !Number.isFinite(s)) continue;
    const i = Math.min(binCount - 1, Math.max(0, Math.floor(s / width)));
    bins[i].count++;
  }
  return bins;
}

/**
 * The ranking as CSV, texts included (from the service's result where it has them, else `texts`).
 * @param {Pick<Outcome, "answers">} result
 * @param {Map<string, string>} texts
 */
export function rankingCsv(result, texts) {
  const lines = [["rank", "id", "score", "eliminated_in_round", "text"].join(",")];
  for (const a of [...result.answers].sort((x, y) => x.rank - y.rank)) {
    lines.push([a.rank, a.id, a.score ?? "", a.eliminatedInRound ?? "", texts.get(a.id) ?? ""].map(csvCell).join(","));
  }
  return `${lines.join("\r\n")}\r\n`;
}

/** Where a final grade came from, in the words a reader of the ranking needs. */
const FINAL_FROM_WORDS = { teacher: "by the teacher", calibrated: "calibrated", judge: "the judge's" };

/**
 * An answer's final grade with where it came from ("4.5, by the teacher"); a dash when nobody scored it.
 * @param {Pick<AnswerView, "finalScore" | "finalFrom">} a
 */
export function finalGradeText(a) {
  if (a.finalScore === null || a.finalScore === undefined) return "–";
  return a.finalFrom ? `${formatScore(a.finalScore)} (${FINAL_FROM_WORDS[a.finalFrom]})` : formatScore(a.finalScore);
}

/**
 * An inline SVG bar chart of the final scores.
 * @param {Document} doc
 * @param {Pick<Outcome, "answers">} result
 * @param {number} maxScore
 */
export function distributionSvg(doc, result, maxScore) {
  const bins = histogram(
    result.answers.map((a) => a.score),
    maxScore,
  );
  const top = Math.max(1, ...bins.map((b) => b.count));
  const W = 320,
    H = 160,
    pad = 24,
    bw = (W - pad * 2) / bins.length;
  const ns = "http://www.w3.org/2000/svg";
  const svg = doc.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("class", "chart");
  const summary = bins
    .filter((b) => b.count)
    .map((b) => `${b.count} between ${formatScore(b.from)} and ${formatScore(b.to)}`)
    .join(", ");
  svg.setAttribute("aria-label", `Score distribution: ${summary || "no scores"}`);
  /**
   * @param {string} name
   * @param {Record<string, string | number>} attrs
   * @param {string} [text]
   */
  const el = (name, attrs, text) => {
    const e = doc.createElementNS(ns, name);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
    if (text !== undefined) e.textContent = text;
    svg.append(e);
    return e;
  };
  el("line", { x1: pad, y1: H - pad, x2: W - pad, y2: H - pad, class: "axis" });
  bins.forEach((b, i) => {
    const h = ((H - pad * 2) * b.count) / top;
    const bar = el("rect", { x: pad + i * bw + 2, y: H - pad - h, width: bw - 4, height: h, class: "bar" });
    const t = doc.createElementNS(ns, "title");
    t.textContent = `${b.count} answer(s) scored ${formatScore(b.from)}–${formatScore(b.to)}`;
    bar.append(t);
    if (b.count) el("text", { x: pad + i * bw + bw / 2, y: H - pad - h - 4, "text-anchor": "middle", class: "count" }, String(b.count));
  });
  // a label at every bin edge: the scale reads 0, 1, … max (or 0, 10, … 100)
  for (let i = 0; i <= bins.length; i++) {
    el(
      "text",
      { x: pad + i * bw, y: H - 6, "text-anchor": "middle", class: "tick" },
      formatScore(i === bins.length ? maxScore : bins[i].from),
    );
  }
  return svg;
}

/**
 * Fills `root` with the ranking, chart, matches and downloads. `texts` maps answer id to text.
 * @param {HTMLElement} root
 * @param {Result} result
 * @param {Map<string, string>} texts
 * @param {{ downloads?: boolean, review?: boolean }} [options]
 */
export function drawResults(root, result, texts, options = {}) {
  const doc = root.ownerDocument;
  /**
   * @param {string} tag
   * @param {Record<string, string>} [attrs]
   * @param {(Node | string)[]} children
   */
  const h = (tag, attrs = {}, ...children) => {
    const e = doc.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    e.append(...children);
    return e;
  };
  root.replaceChildren();
  for (const a of result.answers) if (typeof a.text === "string" && !texts.has(a.id)) texts.set(a.id, a.text);
  const ranked = [...result.answers].sort((x, y) => x.rank - y.rank);
  const knockout = (result.method ?? "knockout") === "knockout";
  const rounds = Math.max(0, ...result.matches.map((m) => (typeof m.round === "number" ? m.round : 0)));
  const top = ranked[0];
  if (knockout) {
    root.append(
      h(
        "p",
        { class: "champion" },
        "Best answer (the tournament's champion, who won the final): ",
        h("strong", {}, result.champion ?? "–"),
      ),
    );
    if (result.champion && top && top.id !== result.champion)
      root.append(
        h(
          "p",
          { class: "hint" },
          `Rank 1 (${top.id}) is the highest score: each answer's score is the mean of every score it got in its matches, so an answer the champion never met, or beat narrowly, can have a higher mean.`,
        ),
      );
  } else {
    root.append(h("p", { class: "champion" }, "Highest score: ", h("strong", {}, result.champion ?? "– (a tie at the top)")));
  }

  const table = h("table", { class: "ranking" });
  table.append(h("caption", {}, `Ranking of ${ranked.length} answers (score out of ${formatScore(result.maxScore)})`));
  // feedback for the students, when the evaluation asked for it: text only (append takes strings as text nodes)
  const feedback = result.answers.some((a) => a.feedback !== undefined);
  // the grade a student gets (the teacher's, else calibrated, else the judge's, rounded to the step)
  const final = result.answers.some((a) => a.finalScore !== undefined);
  const columns = [
    "Rank",
    "Answer",
    "Score",
    ...(final ? ["Final grade"] : []),
    ...(knockout ? ["Out in", "Text"] : ["Text"]),
    ...(feedback ? ["Feedback"] : []),
  ];
  table.append(h("thead", {}, h("tr", {}, ...columns.map((t) => h("th", { scope: "col" }, t)))));
  const body = h("tbody");
  for (const a of ranked) {
    const out = a.eliminatedInRound === null ? "champion" : roundTitle(a.eliminatedInRound, rounds, "knockout");
    body.append(
      h(
        "tr",
        { "data-id": a.id },
        h("td", {}, String(a.rank)),
        h("th", { scope: "row" }, a.id),
        h("td", { class: "num" }, formatScore(a.score)),
        ...(final ? [h("td", { class: "num final" }, finalGradeText(a))] : []),
        ...(knockout ? [h("td", { class: "out" }, out)] : []),
        h("td", { class: "text" }, texts.get(a.id) ?? ""),
        ...(feedback
          ? [h("td", { class: "feedback" }, a.feedback?.text ?? (a.feedbackError ? `No feedback: ${a.feedbackError}` : ""))]
          : []),
      ),
    );
  }
  table.append(body);
  root.append(h("div", { class: "table-wrap" }, table));

  root.append(h("figure", {}, distributionSvg(doc, result, result.maxScore), h("figcaption", {}, "How the final scores are spread")));

  // the judge's biases, beside the result they may have shaped (a shared link's view has none)
  if (result.judgeDiagnostics) root.append(diagnosticsSection(doc, result.judgeDiagnostics));
  if (result.panel) root.append(panelSection(doc, result.panel));

  const matches = h("div", { class: "matches" }, h("h3", {}, "Matches"));
  result.matches.forEach((m, i) => {
    const round = m.round === "extra" ? "Extra judgment" : roundTitle(m.round, rounds, result.method ?? "knockout");
    const title =
      m.b === null ? `${m.a}: ${formatScore(m.scoreA)}` : `${round}: ${m.a} ${formatScore(m.scoreA)} – ${formatScore(m.scoreB)} ${m.b}`;
    const decided = knockout && m.round !== "extra" ? ` · ${m.winner} advances` : ` · ${m.winner} scored higher`;
    const summary = h("summary", {}, title, m.winner ? decided : "");
    const calls = m.calls.map((c, j) =>
      h(
        "div",
        { class: "call" },
        h("p", {}, `Judge call ${j + 1}: ${c.order.map((id, k) => `${id} ${formatScore(c.scores[k])}`).join(", ")}`),
        h("pre", {}, c.raw || "(no explanation)"),
      ),
    );
    matches.append(h("details", { "data-match": String(i) }, summary, ...calls));
  });
  root.append(matches);

  if (options.downloads !== false) {
    const name = result.id ?? "evaluation";
    const json = JSON.stringify({ ...result, answers: result.answers.map((a) => ({ ...a, text: texts.get(a.id) })) }, null, 2);
    root.append(
      h(
        "p",
        { class: "downloads" },
        download(doc, `${name}.csv`, "text/csv", rankingCsv(result, texts), "Download CSV"),
        " ",
        download(doc, `${name}.json`, "application/json", json, "Download JSON"),
        ...(options.review && result.id
          ? [" ", link(doc, `/review?id=${encodeURIComponent(result.id)}`, "Review and grade the answers")]
          : []),
      ),
    );
  }
}

/**
 * @param {Document} doc
 * @param {string} filename
 * @param {string} type
 * @param {string} content
 * @param {string} label
 */
function download(doc, filename, type, content, label) {
  const a = doc.createElement("a");
  a.href = URL.createObjectURL(new Blob([content], { type }));
  a.download = filename;
  a.className = "button";
  a.textContent = label;
  return a;
}

/**
 * @param {Document} doc
 * @param {string} href
 * @param {string} label
 */
function link(doc, href, label) {
  const a = doc.createElement("a");
  a.href = href;
  a.className = "button";
  a.textContent = label;
  return a;
}
