// Cloudflare's Workers Paid prices, as the bill (`npm run bench -- --only bill`) uses them: usage
// beyond the plan's monthly allowance, in US dollars. Read 2026-11-26 from Cloudflare's pricing
// pages (developers.cloudflare.com: workers/platform/pricing, durable-objects/platform/pricing,
// d1/platform/pricing). Prices change: check them there before quoting a bill, and change them here
// with the date. The bill prices every unit at the overage rate (no allowance subtracted): it is
// the marginal cost of grading, what 1,000 more answers add to a deployment already past the allowance.
export const PRICES_READ = "2026-11-26";

export const prices = {
  plan: { monthlyUsd: 5, note: "Workers Paid: $5 a month, with the allowances below" },
  workers: {
    requestsPerMillion: 0.3, // 10 million a month included
    cpuMsPerMillion: 0.02, // 30 million CPU ms a month included
  },
  durableObjects: {
    requestsPerMillion: 0.15, // 1 million a month included; every RPC call on a stub, fetch and alarm is one
    gbSecondsPerMillion: 12.5, // 400,000 GB-s a month included; wall-clock while active, at 128 MB per object
    gbPerObject: 0.128,
    sqlRowsReadPerMillion: 0.001, // SQLite-backed storage: 25 billion a month included
    sqlRowsWrittenPerMillion: 1.0, // 50 million a month included
    storedGbMonth: 0.2, // 5 GB-month included
  },
  d1: {
    rowsReadPerMillion: 0.001, // 25 billion a month included
    rowsWrittenPerMillion: 1.0, // 50 million a month included
    storedGbMonth: 0.75, // 5 GB included
  },
};
