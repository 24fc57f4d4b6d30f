// @ts-check
// A panel of judges beside the result (docs/grading.md, "A panel of judges"): each judge against the
// panel (Pearson and mean absolute difference of its scores from the panel's), then each judge's own
// biases side by side, so the judge that disagrees with the rest, or favours a position, stands out.
// Built from the result's `panel` as the service sends it.
import { formatScore } from "./score-format.js";
import { diagnosticRows } from "./judge-diagnostics.js";

/** @typedef {NonNullable<import("../../src/contract").Evaluation["panel"]>} Panel */

const MODES = /** @type {Record<string, string>} */ ({
  cycle: "each match went to the next judge in turn",
  all: "every call went to every judge, their scores averaged",
});

/**
 * A correlation to three decimals; "–" where there is none (under three answers).
 * @param {number | null} x
 */
function correlation(x) {
  return x === null ? "–" : x.toFixed(3);
}

/**
 * The agreement table's head and rows: a judge a row; "absent" (the calls it gave no answer to) in "all" only.
 * @param {Panel} p
 * @returns {{ head: string[], rows: string[][] }}
 */
export function agreementRows(p) {
  const all = p.mode === "all";
  return {
    head: ["Judge", "Matches", "Answers", "Pearson vs panel", "Mean abs. difference", ...(all ? ["Calls not answered"] : [])],
    rows: p.judges.map((j) => [
      j.model,
      String(j.matches),
      String(j.answers),
      correlation(j.pearson),
      formatScore(j.meanAbsDiff),
      ...(all ? [String(j.absent ?? 0)] : []),
    ]),
  };
}

/**
 * Each judge's own diagnostics side by side: a figure a row, a judge a column, the anchor last.
 * @param {Panel} p
 * @returns {{ head: string[], rows: string[][] }}
 */
export function panelFigureRows(p) {
  const each = p.judges.map((j) => diagnosticRows(j.judgeDiagnostics));
  const labels = each[0]?.map((r) => r[0]) ?? [];
  return {
    head: ["Figure", ...p.judges.map((j) => j.model), "Published judges"],
    rows: labels.map((label, i) => [label, ...each.map((rows) => rows[i][1]), each[0][i][3]]),
  };
}

/**
 * The section: the agreement table, the figures table, and each judge's warnings under its name.
 * @param {Document} doc
 * @param {Panel} p
 */
export function panelSection(doc, p) {
  /**
   * @param {string} tag
   * @param {Record<string, string>} attrs
   * @param {(Node | string)[]} children
   */
  const h = (tag, attrs, ...children) => {
    const e = doc.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    e.append(...children);
    return e;
  };
  /**
   * @param {string} caption
   * @param {{ head: string[], rows: string[][] }} t
   */
  const table = (caption, t) =>
    h(
      "div",
      { class: "table-wrap" },
      h(
        "table",
        { class: "diagnostics" },
        h("caption", {}, caption),
        h("thead", {}, h("tr", {}, ...t.head.map((c) => h("th", { scope: "col" }, c)))),
        h(
          "tbody",
          {},
          ...t.rows.map(([first, ...cells]) => h("tr", {}, h("th", { scope: "row" }, first), ...cells.map((c) => h("td", {}, c)))),
        ),
      ),
    );
  const section = h(
    "section",
    { class: "judge-diagnostics panel-report", "aria-label": "Panel of judges" },
    table(`A panel of judges (${MODES[p.mode] ?? p.mode}): each judge against the panel`, agreementRows(p)),
    table("Each judge's biases, on the matches it judged", panelFigureRows(p)),
  );
  const warnings = p.judges.flatMap((j) => j.judgeDiagnostics.warnings.map((w) => ({ model: j.model, ...w })));
  if (warnings.length > 0)
    section.append(
      h(
        "ul",
        { class: "warnings", role: "status" },
        ...warnings.map((w) => h("li", { "data-figure": w.figure, "data-judge": w.model }, `Warning (${w.model}): ${w.message}`)),
      ),
    );
  return section;
}
