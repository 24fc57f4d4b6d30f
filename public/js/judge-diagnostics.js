// @ts-check
// The judge's own biases beside the result (docs/grading.md, "Judging the judge"): each figure with its
// 95% interval and the anchors' figure to read it against, then the service's warnings, if any. Built
// from `judgeDiagnostics` as the service sends it: the rules for a warning live there, not here.

/** @typedef {import("../../src/contract").JudgeDiagnosticsView} JudgeDiagnostics */
/** @typedef {JudgeDiagnostics["firstPositionWins"]} Share */

/**
 * A share as a percentage to one decimal; "–" where there is none.
 * @param {number | null | undefined} x
 */
export function percent(x) {
  return x === null || x === undefined ? "–" : `${(100 * x).toFixed(1)}%`;
}

/**
 * The rows of the table: label, this judge's figure ("55.0% (11 of 20)"), its interval, the anchor.
 * @param {JudgeDiagnostics} d
 * @returns {string[][]}
 */
export function diagnosticRows(d) {
  /** @type {[string, Share][]} */
  const figures = [
    ["The answer shown first wins", d.firstPositionWins],
    ["The two orders pick different winners", d.ordersDisagree],
    [`The longer answer wins (${d.longerWins.lengthRatio}× the characters or more)`, d.longerWins],
    ["Calls asked again (reply unreadable)", d.parseRetried],
    ["Matches tied on the written scores", d.ties],
  ];
  return figures.map(([label, f]) => [
    label,
    f.of > 0 ? `${percent(f.share)} (${f.count} of ${f.of})` : "–",
    f.interval ? `${percent(f.interval[0])}–${percent(f.interval[1])}` : "–",
    f.anchor ? `${percent(f.anchor.value)} (${f.anchor.source})` : "",
  ]);
}

/**
 * The section: a table of the figures and a list of the warnings.
 * @param {Document} doc
 * @param {JudgeDiagnostics} d
 */
export function diagnosticsSection(doc, d) {
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
  const head = ["Figure", "This judge", "95% interval", "Published judges"];
  const table = h(
    "table",
    { class: "diagnostics" },
    h("caption", {}, "Judging the judge: its biases on this evaluation"),
    h("thead", {}, h("tr", {}, ...head.map((t) => h("th", { scope: "col" }, t)))),
    h(
      "tbody",
      {},
      ...diagnosticRows(d).map(([label, ...cells]) => h("tr", {}, h("th", { scope: "row" }, label), ...cells.map((c) => h("td", {}, c)))),
    ),
  );
  const section = h("section", { class: "judge-diagnostics", "aria-label": "Judge diagnostics" }, h("div", { class: "table-wrap" }, table));
  if (d.warnings.length > 0)
    section.append(
      h(
        "ul",
        { class: "warnings", role: "status" },
        ...d.warnings.map((w) => h("li", { "data-figure": w.figure }, `Warning: ${w.message}`)),
      ),
    );
  return section;
}
