/**
 * Permits to call one judge endpoint, at most `cap` at a time, shared by every evaluation, handed out
 * fairly: waiters queue per owner (an evaluation), and a freed permit goes to the next owner in turn
 * (round-robin), not to the oldest call overall. So a batch of 1,000 calls takes one permit per turn,
 * like a question of 3 calls that arrived after it, and the small one is never starved.
 *
 * A permit is a lease: it expires `leaseMs` after it was granted, so a holder that died without
 * releasing (a crashed Durable Object) cannot keep capacity forever. A holder's `run` names one life of
 * its owner: a request from a newer run of the same owner drops what older runs still hold or wait for,
 * because a Durable Object's outbound calls die with the instance that made them.
 *
 * Interactive before batch: an owner that is a question of a batch (`batch: true`) is served only when no
 * interactive owner waits, so a teacher's one question posted while an exam of 1,000 questions runs gets
 * the next permit; among owners of one kind, the turns are as above.
 *
 * Pure and synchronous, with the clock passed in: the Durable Object around it only keeps promises.
 */
export interface Waiter {
  id: string;
  owner: string;
  run: string;
  /** The owner is a question of a batch: served after every interactive owner that waits. */
  batch?: boolean;
}

interface Lease extends Waiter {
  expiresAt: number;
}

export interface GateStats {
  cap: number;
  inUse: number;
  waiting: number;
  owners: number;
}

export class FairGate {
  private readonly leases = new Map<string, Lease>();
  private readonly queues = new Map<string, Waiter[]>();
  /** Owners with waiters, in turn order; `turn` is the index of the next one to serve. */
  private ring: string[] = [];
  private turn = 0;
  private readonly runs = new Map<string, string>();
  private readonly waitingIds = new Set<string>();
  /** The owners that are questions of a batch. */
  private readonly batchOwners = new Set<string>();

  constructor(
    readonly cap: number,
    readonly leaseMs: number,
  ) {
    if (!(cap >= 1)) throw new RangeError("cap must be at least 1");
  }

  /**
   * Queues a waiter and grants what capacity allows. Returns the waiters granted now (possibly this
   * one) and those dropped because a newer run of their owner appeared.
   */
  request(w: Waiter, now: number): { granted: Waiter[]; dropped: Waiter[] } {
    if (this.leases.has(w.id) || this.waitingIds.has(w.id)) throw new Error(`waiter ${w.id} is already known`);
    const dropped = this.runs.get(w.owner) !== undefined && this.runs.get(w.owner) !== w.run ? this.dropOwner(w.owner, w.run) : [];
    this.runs.set(w.owner, w.run);
    if (w.batch) this.batchOwners.add(w.owner);
    else this.batchOwners.delete(w.owner);
    let queue = this.queues.get(w.owner);
    if (!queue) {
      queue = [];
      this.queues.set(w.owner, queue);
      // a newcomer joins at the end of the current cycle: just before the owner whose turn is next
      this.ring.splice(this.turn, 0, w.owner);
      this.turn++;
      if (this.turn >= this.ring.length) this.turn = 0;
    }
    queue.push(w);
    this.waitingIds.add(w.id);
    return { granted: this.fill(now), dropped };
  }

  /** Gives a permit back; releasing an unknown or expired lease is harmless (and grants nothing new). */
  release(id: string, now: number): Waiter[] {
    const lease = this.leases.get(id);
    if (!lease) return this.fill(now);
    this.leases.delete(id);
    this.tidy(lease.owner);
    return this.fill(now);
  }

  /** Drops everything an owner holds or waits for (it was cancelled or finished). */
  forget(owner: string, now: number): { granted: Waiter[]; dropped: Waiter[] } {
    const dropped = this.dropOwner(owner, null);
    this.runs.delete(owner);
    this.batchOwners.delete(owner);
    return { granted: this.fill(now), dropped };
  }

  /** Reclaims expired leases and grants their capacity. */
  expire(now: number): Waiter[] {
    return this.fill(now);
  }

  /** When the earliest lease runs out, or null with none held. */
  nextExpiry(): number | null {
    let next: number | null = null;
    for (const l of this.leases.values()) if (next === null || l.expiresAt < next) next = l.expiresAt;
    return next;
  }

  stats(): GateStats {
    return { cap: this.cap, inUse: this.leases.size, waiting: this.waitingIds.size, owners: this.ring.length };
  }

  held(id: string): boolean {
    return this.leases.has(id);
  }

  private fill(now: number): Waiter[] {
    for (const [id, l] of this.leases) {
      if (l.expiresAt <= now) {
        this.leases.delete(id);
        this.tidy(l.owner);
      }
    }
    const granted: Waiter[] = [];
    while (this.leases.size < this.cap && this.ring.length > 0) {
      if (this.turn >= this.ring.length) this.turn = 0;
      this.turn = this.nextInteractive();
      const owner = this.ring[this.turn];
      const queue = this.queues.get(owner)!;
      const w = queue.shift()!;
      this.waitingIds.delete(w.id);
      this.leases.set(w.id, { ...w, expiresAt: now + this.leaseMs });
      granted.push(w);
      if (queue.length === 0) {
        this.queues.delete(owner);
        this.ring.splice(this.turn, 1); // the next owner slides into this index: it is next in turn
      } else {
        this.turn++;
      }
    }
    return granted;
  }

  /** The first interactive owner in turn order from `turn`, or `turn` itself when only batch owners wait. */
  private nextInteractive(): number {
    if (this.batchOwners.size === 0) return this.turn;
    for (let k = 0; k < this.ring.length; k++) {
      const at = (this.turn + k) % this.ring.length;
      if (!this.batchOwners.has(this.ring[at])) return at;
    }
    return this.turn;
  }

  /** Removes the owner's waiters and leases, except those of `keepRun`. */
  private dropOwner(owner: string, keepRun: string | null): Waiter[] {
    const dropped: Waiter[] = [];
    for (const [id, l] of this.leases) {
      if (l.owner === owner && l.run !== keepRun) {
        this.leases.delete(id);
        dropped.push(l);
      }
    }
    const queue = this.queues.get(owner);
    if (queue) {
      const keep = queue.filter((w) => w.run === keepRun);
      for (const w of queue) {
        if (w.run === keepRun) continue;
        dropped.push(w);
        this.waitingIds.delete(w.id);
      }
      if (keep.length) this.queues.set(owner, keep);
      else this.leaveRing(owner);
    }
    return dropped.map(({ id, owner: o, run, batch }) => ({ id, owner: o, run, ...(batch ? { batch } : {}) }));
  }

  private leaveRing(owner: string): void {
    this.queues.delete(owner);
    const at = this.ring.indexOf(owner);
    if (at < 0) return;
    this.ring.splice(at, 1);
    if (at < this.turn) this.turn--;
    if (this.turn >= this.ring.length) this.turn = 0;
  }

  /** Forgets an owner's run once it holds and waits for nothing, so the map does not grow forever. */
  private tidy(owner: string): void {
    if (this.queues.has(owner)) return;
    for (const l of this.leases.values()) if (l.owner === owner) return;
    this.runs.delete(owner);
    this.batchOwners.delete(owner);
  }
}
