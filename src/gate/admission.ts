/**
 * Which queued evaluations start next at a judge endpoint. Only so many run at once (enough to keep the
 * judge full, see `runningLimit`); the rest wait as rows, costing no Durable Object and no memory until
 * their turn. Tenants take turns, so one tenant's 1,000 queued questions do not hold back another
 * tenant's one; within a tenant, questions start in the order they were posted. And no tenant holds
 * more than its share of the places (`tenantLimit`), so another tenant's question starts at once even
 * while one tenant's backlog could fill them all.
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
 * The share of the running places one tenant's evaluations may hold: the rest are always there for
 * the other tenants, so a tenant with a backlog (80 questions of 256 answers posted at once) cannot
 * hold every place while another tenant's two-answer question waits minutes for one to free. Three
 * quarters: with the default limit of four places per judge slot, one tenant alone still has three
 * running evaluations per slot, more calls ready than the judge can take (`runningLimit`), so the
 * judge stays full.
 */
export const TENANT_SHARE = 3 / 4;

/**
 * The running places one tenant may hold: TENANT_SHARE of `limit`, rounded down so that a place is
 * left for another tenant whenever the limit is 2 or more (rounded up, a limit of 2 or 3 would leave
 * none), and at least 1.
 */
export function tenantLimit(limit: number): number {
  return Math.max(1, Math.floor(TENANT_SHARE * limit));
}

/**
 * Picks up to `free` evaluations from `queued` (any order), one per tenant per turn. Turns go round the
 * tenants in name order, beginning after `lastTenant`, so a tenant that was just served goes last.
 * `room`: how many more of a tenant's may start (none when 0 or less); a tenant out of room is passed
 * over, and its turns go to the others.
 */
export function nextToStart(
  queued: readonly Queued[],
  lastTenant: string | null,
  free: number,
  room: (tenant: string) => number = () => Number.POSITIVE_INFINITY,
): Pick {
  const lines = new Map<string, Queued[]>();
  for (const q of [...queued].sort((a, b) => a.seq - b.seq)) {
    const line = lines.get(q.tenant);
    if (line) line.push(q);
    else lines.set(q.tenant, [q]);
  }
  for (const [tenant, line] of lines) {
    const may = Math.max(0, room(tenant));
    if (may === 0) lines.delete(tenant);
    else line.splice(may);
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

/** A tenant's running evaluations, by kind. */
export interface Held {
  interactive: number;
  batch: number;
}

/**
 * Interactive before batch: an evaluation created on its own (the API, the web page, a collection)
 * starts while fewer than `limit` interactive ones run, whatever the batch questions hold; a batch
 * question starts while fewer than `limit` run in all. So a question posted while an exam of 1,000
 * questions fills every place starts at once, and at most 2 x limit run. Interactive ones are picked
 * first, each kind by `nextToStart`'s tenant turns.
 *
 * A tenant's share (`tenantLimit`): its interactive evaluations start while it has fewer than the
 * share of them running, and its batch questions while it has fewer than the share running in all (a
 * collection's grading is an interactive evaluation of its tenant, like any other). So a teacher's
 * question still starts while the school's own exam holds the school's share. In "run in all", each
 * tenant counts for at most its share: what it runs past that (interactive ones started while its batch
 * questions held its share) takes no batch place from another tenant.
 *
 * `running`: the running evaluations of every tenant that has any.
 */
export function admit(queued: readonly Queued[], lastTenant: string | null, limit: number, running: ReadonlyMap<string, Held>): Pick {
  const share = tenantLimit(limit);
  const held = (tenant: string): Held => running.get(tenant) ?? { interactive: 0, batch: 0 };
  let interactiveRunning = 0;
  for (const h of running.values()) interactiveRunning += h.interactive;
  const interactive = nextToStart(
    queued.filter((q) => !q.batch),
    lastTenant,
    limit - interactiveRunning,
    (tenant) => share - held(tenant).interactive,
  );
  // what each tenant holds in all once these start
  const inAll = new Map<string, number>();
  for (const [tenant, h] of running) inAll.set(tenant, h.interactive + h.batch);
  const tenantOf = new Map(queued.map((q) => [q.id, q.tenant]));
  for (const id of interactive.start) {
    const tenant = tenantOf.get(id)!;
    inAll.set(tenant, (inAll.get(tenant) ?? 0) + 1);
  }
  let counted = 0;
  for (const n of inAll.values()) counted += Math.min(n, share);
  const batch = nextToStart(
    queued.filter((q) => q.batch),
    interactive.lastTenant,
    limit - counted,
    (tenant) => share - (inAll.get(tenant) ?? 0),
  );
  return { start: [...interactive.start, ...batch.start], lastTenant: batch.lastTenant };
}

/**
 * Whether `admit` could start anything with `running` as it is: false when the interactive places are
 * all taken and the batch places too, so the gate need not read its queue.
 */
export function hasRoom(limit: number, running: ReadonlyMap<string, Held>): boolean {
  const share = tenantLimit(limit);
  let interactive = 0;
  let counted = 0;
  for (const h of running.values()) {
    interactive += h.interactive;
    counted += Math.min(h.interactive + h.batch, share);
  }
  return interactive < limit || counted < limit;
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
