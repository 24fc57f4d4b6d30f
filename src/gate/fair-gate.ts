import { type Decision, type Health, routeWaiter, type Slot, type SlotState } from "./route";
export type { Health, Slot };
/**
 * Permits to call the judge, at most `cap` at a time per endpoint of the pool, shared by every
 * evaluation, handed out
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
 * A pool of endpoints: each permit is for one endpoint, chosen when it is granted: among the endpoints
 * that are up and have room, the least loaded relative to its cap (x weight). An endpoint that is down
 * (its circuit open) gets calls only when no endpoint is up, and one that is out (it serves another
 * model) only when every endpoint is out, so that with the whole pool down the
 * calls still go out, fail and back off as with one judge, and give up at their deadline. A waiter may
 * name an endpoint to `avoid` (the one its last attempt failed on): it goes elsewhere if anywhere has
 * room now, and to that one only if not.
 *
 * Several models (issue 30: a panel of judges): an endpoint may serve only some models, and a waiter
 * names the models its call may be asked of, in preference order. It goes to an endpoint that serves
 * one of them: the first model with an endpoint up (so a panel's judge that is down is skipped, and
 * the next takes the call), else as above. A waiter that must not go to its judge while that judge is
 * down (`skipIfDown`: the other judges of its panel) is answered "skipped" instead, with no permit, when
 * none of its models has an endpoint up and one of those others has. A waiter whose models have no
 * room waits, whatever room another model has: each model keeps its endpoints' caps. Among owners, the
 * turns are as above, over the waiters that can go now; an owner's waiters go in order, past those
 * whose model has no room.
 *
 * Pure and synchronous, with the clock passed in: the Durable Object around it only keeps promises.
 */
export interface Waiter {
  id: string;
  owner: string;
  run: string;
  /** The owner is a question of a batch: served after every interactive owner that waits. */
  batch?: boolean;
  /** An endpoint not to send to if another has room (the one the call's last attempt failed on). */
  avoid?: string;
  /** The models the call may be asked of, first preferred; absent: any endpoint (a pool of one model). */
  models?: readonly string[];
  /** Answer "skipped" rather than send to a judge that is down, when one of these models has an endpoint up. */
  skipIfDown?: readonly string[];
}

/**
 * A granted permit: the waiter, the endpoint it is for and the model it was routed for (one of the
 * waiter's `models`). `skipped`: no permit (endpoint ""), the waiter's judge is down (see `skipIfDown`).
 */
export interface Grant extends Waiter {
  endpoint: string;
  model?: string;
  skipped?: true;
}

interface Lease extends Grant {
  grantedAt: number;
  expiresAt: number;
}

export interface GateStats {
  cap: number;
  inUse: number;
  waiting: number;
  owners: number;
  endpoints: { id: string; cap: number; inUse: number; health: Health }[];
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
  private readonly slots: SlotState[];
  /** What the waiters' routes were this fill: one decision per kind of waiter while nothing changes. */
  private decided = new Map<string, Decision>();
  /** Requests open at once over the whole pool. */
  readonly cap: number;

  /** `slots`: the pool's endpoints, or one cap for a pool of one (its endpoint is "0"). */
  constructor(
    slots: number | readonly Slot[],
    readonly leaseMs: number,
  ) {
    const list = typeof slots === "number" ? [{ id: "0", cap: slots }] : slots;
    if (list.length === 0) throw new RangeError("a pool needs an endpoint");
    for (const s of list) if (!(s.cap >= 1)) throw new RangeError("cap must be at least 1");
    this.slots = list.map((s) => ({
      id: s.id,
      cap: s.cap,
      weight: s.weight ?? 1,
      models: s.models ?? null,
      inUse: 0,
      health: "up" as Health,
    }));
    this.cap = this.slots.reduce((n, s) => n + s.cap, 0);
  }

  /** An endpoint's health changed; coming up grants what it has room for. */
  setHealth(endpoint: string, health: Health, now: number): Grant[] {
    const slot = this.slots.find((s) => s.id === endpoint);
    if (!slot) throw new Error(`unknown endpoint ${endpoint}`);
    slot.health = health;
    return this.fill(now);
  }

  /**
   * Queues a waiter and grants what capacity allows. Returns the waiters granted now (possibly this
   * one) and those dropped because a newer run of their owner appeared.
   */
  request(w: Waiter, now: number): { granted: Grant[]; dropped: Waiter[] } {
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
  release(id: string, now: number): Grant[] {
    const lease = this.leases.get(id);
    if (!lease) return this.fill(now);
    this.drop(id, lease);
    this.tidy(lease.owner);
    return this.fill(now);
  }

  /** The endpoint a held permit is for, or undefined for an unknown or expired one. */
  endpointOf(id: string): string | undefined {
    return this.leases.get(id)?.endpoint;
  }

  /** When a held permit was granted, or undefined for an unknown, released, expired or dropped one. */
  grantedAt(id: string): number | undefined {
    return this.leases.get(id)?.grantedAt;
  }

  /** Drops everything an owner holds or waits for (it was cancelled or finished). */
  forget(owner: string, now: number): { granted: Grant[]; dropped: Waiter[] } {
    const dropped = this.dropOwner(owner, null);
    this.runs.delete(owner);
    this.batchOwners.delete(owner);
    return { granted: this.fill(now), dropped };
  }

  /** Reclaims expired leases and grants their capacity. */
  expire(now: number): Grant[] {
    return this.fill(now);
  }

  /** When the earliest lease runs out, or null with none held. */
  nextExpiry(): number | null {
    let next: number | null = null;
    for (const l of this.leases.values()) if (next === null || l.expiresAt < next) next = l.expiresAt;
    return next;
  }

  stats(): GateStats {
    return {
      cap: this.cap,
      inUse: this.leases.size,
      waiting: this.waitingIds.size,
      owners: this.ring.length,
      endpoints: this.slots.map((s) => ({ id: s.id, cap: s.cap, inUse: s.inUse, health: s.health })),
    };
  }

  held(id: string): boolean {
    return this.leases.has(id);
  }

  private fill(now: number): Grant[] {
    for (const [id, l] of this.leases) {
      if (l.expiresAt <= now) {
        this.drop(id, l);
        this.tidy(l.owner);
      }
    }
    const granted: Grant[] = [];
    for (;;) {
      this.decided = new Map();
      const next = this.nextToGo();
      if (!next) break;
      const { at, index, decision } = next;
      this.turn = at;
      const owner = this.ring[at];
      const queue = this.queues.get(owner)!;
      const [w] = queue.splice(index, 1);
      this.waitingIds.delete(w.id);
      if (decision === "skip") granted.push({ ...w, endpoint: "", skipped: true });
      else {
        decision.slot.inUse++;
        const grant: Grant = { ...w, endpoint: decision.slot.id, ...(decision.model !== undefined ? { model: decision.model } : {}) };
        this.leases.set(w.id, { ...grant, grantedAt: now, expiresAt: now + this.leaseMs });
        granted.push(grant);
      }
      if (queue.length === 0) {
        this.queues.delete(owner);
        this.ring.splice(at, 1); // the next owner slides into this index: it is next in turn
        if (this.turn >= this.ring.length) this.turn = 0;
        if (decision === "skip") this.tidy(owner);
      } else {
        this.turn = (at + 1) % this.ring.length;
      }
    }
    return granted;
  }

  /**
   * The waiter to answer next: in turn from `turn`, interactive owners first, each owner's first waiter
   * that can go now (a permit, or skipped). Null when none can.
   */
  private nextToGo(): { at: number; index: number; decision: Exclude<Decision, null> } | null {
    if (this.ring.length === 0) return null;
    if (this.turn >= this.ring.length) this.turn = 0;
    const room = this.slots.some((s) => s.inUse < s.cap);
    for (const batch of [false, true]) {
      for (let k = 0; k < this.ring.length; k++) {
        const at = (this.turn + k) % this.ring.length;
        const owner = this.ring[at];
        if (this.batchOwners.has(owner) !== batch) continue;
        const queue = this.queues.get(owner)!;
        for (const [index, w] of queue.entries()) {
          if (!room && !w.skipIfDown) continue; // nothing but a skip can be answered now
          const decision = this.decide(w);
          if (decision) return { at, index, decision };
        }
      }
    }
    return null;
  }

  /** Where a waiter goes now (memoised per kind of waiter within one pass: they route alike). */
  private decide(w: Waiter): Decision {
    const key = `${w.models?.join("\u0000") ?? ""}|${w.skipIfDown?.join("\u0000") ?? ""}|${w.avoid ?? ""}`;
    if (this.decided.has(key)) return this.decided.get(key)!;
    const decision = routeWaiter(this.slots, w);
    this.decided.set(key, decision);
    return decision;
  }

  private drop(id: string, lease: Lease): void {
    this.leases.delete(id);
    const slot = this.slots.find((s) => s.id === lease.endpoint);
    if (slot) slot.inUse--;
  }

  /** Removes the owner's waiters and leases, except those of `keepRun`. */
  private dropOwner(owner: string, keepRun: string | null): Waiter[] {
    const dropped: Waiter[] = [];
    for (const [id, l] of this.leases) {
      if (l.owner === owner && l.run !== keepRun) {
        this.drop(id, l);
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
