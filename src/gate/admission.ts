/**
 * Which queued evaluations start next at a judge endpoint. Only so many run at once (enough to keep the
 * judge full, see `runningLimit`); the rest wait as rows, costing no Durable Object and no memory until
 * their turn. Tenants take turns, so one tenant's 1,000 queued questions do not hold back another
 * tenant's one; within a tenant, questions start in the order they were posted.
 *
 * Pure: the JudgeGate Durable Object keeps the queue in its SQLite and asks this what to start.
 */
export interface Queued {
  id: string;
  tenant: string;
  /** Arrival order at the gate. */
  seq: number;
  /** A question of a batch: it starts after every interactive evaluation that waits. */
  batch?: boolean;
}

export interface Pick {
  /** The evaluations to start, in the order chosen. */
  start: string[];
  /** The tenant served last: the next turn goes to the tenant after it. */
  lastTenant: string | null;
}

/**
 * Picks up to `free` evaluations from `queued` (any order), one per tenant per turn. Turns go round the
 * tenants in name order, beginning after `lastTenant`, so a tenant that was just served goes last.
 */
export function nextToStart(queued: readonly Queued[], lastTenant: string | null, free: number): Pick {
  const lines = new Map<string, Queued[]>();
  for (const q of [...queued].sort((a, b) => a.seq - b.seq)) {
    const line = lines.get(q.tenant);
    if (line) line.push(q);
    else lines.set(q.tenant, [q]);
  }
  const tenants = [...lines.keys()].sort();
  const start: string[] = [];
  let last = lastTenant;
  // the first tenant after the last one served, wrapping round
  let turn = last === null ? 0 : tenants.findIndex((t) => t > last!);
  if (turn < 0) turn = 0;
  while (start.length < free && tenants.length > 0) {
    const tenant = tenants[turn];
    const line = lines.get(tenant)!;
    start.push(line.shift()!.id);
    last = tenant;
    if (line.length === 0) tenants.splice(turn, 1);
    else turn++;
    if (turn >= tenants.length) turn = 0;
  }
  return { start, lastTenant: last };
}

/**
 * Interactive before batch: an evaluation created on its own (the API, the web page, a collection)
 * starts while fewer than `limit` interactive ones run, whatever the batch questions hold; a batch
 * question starts while fewer than `limit` run in all. So a question posted while an exam of 1,000
 * questions fills every place starts at once, and at most 2 x limit run. Interactive ones are picked
 * first, each kind by `nextToStart`'s tenant turns.
 */
export function admit(
  queued: readonly Queued[],
  lastTenant: string | null,
  limit: number,
  running: { interactive: number; batch: number },
): Pick {
  const interactive = nextToStart(
    queued.filter((q) => !q.batch),
    lastTenant,
    Math.max(0, limit - running.interactive),
  );
  const room = Math.max(0, limit - running.interactive - running.batch - interactive.start.length);
  const batch = nextToStart(
    queued.filter((q) => q.batch),
    interactive.lastTenant,
    room,
  );
  return { start: [...interactive.start, ...batch.start], lastTenant: batch.lastTenant };
}

/**
 * Evaluations running at once per judge endpoint, when JUDGE_MAX_RUNNING does not say: four for every
 * request the judge serves at once. A running tournament has between 1 and JUDGE_MAX_IN_FLIGHT calls
 * ready at any moment (a final has 1, or 2 debiased); four per slot keeps every slot busy even when
 * most running questions are down to their last match, and bounds memory by the judge's size rather
 * than by the queue's.
 */
export function runningLimit(maxConcurrency: number, configured?: number): number {
  return configured !== undefined ? Math.max(1, Math.floor(configured)) : Math.max(8, 4 * maxConcurrency);
}
