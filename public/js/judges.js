// @ts-check
// The judge pool's status line: how many judge servers are up, how busy they are, how fast they answer
// (GET /v1/judges). Pure formatting here; grade.js fetches and refreshes it.

/** @typedef {import("../../src/contract").JudgesView} JudgesView */

/**
 * One line for a teacher: "Judge: 2 of 2 servers up · 5 of 32 calls in flight, 3 waiting · median 1.2 s",
 * naming the servers that are down or out.
 * @param {JudgesView} view
 * @returns {string}
 */
export function judgesLine(view) {
  const total = view.endpoints.length;
  const up = view.endpoints.filter((e) => e.circuit.state === "closed");
  const parts = [
    total === 1
      ? `Judge ${up.length ? "up" : "down"}${view.model ? ` (${view.model})` : ""}`
      : `Judge: ${up.length} of ${total} servers up${view.model ? ` (${view.model})` : ""}`,
    `${view.inFlight} of ${view.capacity} calls in flight${view.waiting ? `, ${view.waiting} waiting` : ""}`,
  ];
  const medians = view.endpoints.flatMap((e) => (e.latencyMs ? [e.latencyMs.p50] : []));
  if (medians.length) parts.push(`median ${seconds(Math.max(...medians))}`);
  const troubled = view.endpoints.filter((e) => e.circuit.state !== "closed");
  if (total > 1 && troubled.length)
    parts.push(troubled.map((e) => `${e.url} ${e.circuit.state === "out" ? "out (another model)" : "down"}`).join(", "));
  return parts.join(" · ");
}

/** @param {number} ms */
function seconds(ms) {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}
