import { Semaphore } from "../src/gate/semaphore";
import { JudgeError } from "../src/judge/client";
import type { JudgeGate } from "./judge-gate";
import { judgeGateStub } from "../src/stubs";

/**
 * A tournament's permits to call the judge, under both caps: its own (Cloudflare's connections per
 * invocation, JUDGE_MAX_IN_FLIGHT) and the endpoint's JudgeGate (requests open at the judge across all
 * evaluations, JUDGE_MAX_CONCURRENCY, fair between evaluations). A permit covers one HTTP attempt,
 * never a retry's backoff.
 */
export class JudgePermits {
  private readonly outbound: Semaphore;
  /** One life of the object, so the gate can drop permits a crashed earlier life still held. */
  private readonly life = crypto.randomUUID();
  /** Leases done with, to go back to the gate with the next acquire (or on their own, a moment later). */
  private toRelease: string[] = [];
  private releaseTimer: ReturnType<typeof setTimeout> | null = null;
  /** Releases sent but not yet confirmed; a pump waits for them before it ends. */
  private readonly releasing = new Set<Promise<void>>();
  /** The gate's stub, made once: idFromName hashes the name, which is not free on every call. */
  private gateStub: { baseUrl: string; stub: DurableObjectStub<JudgeGate> } | null = null;

  constructor(
    private readonly env: Env,
    maxInFlight: number,
  ) {
    this.outbound = new Semaphore(maxInFlight);
  }

  /** Runs one request to the judge at `baseUrl` for `evaluation` once both caps allow it. */
  use<T>(evaluation: string, baseUrl: string, attempt: () => Promise<T>, batch = false): Promise<T> {
    return this.outbound.use(async () => {
      const gate = this.gate(baseUrl);
      let lease: string | null;
      try {
        lease = await gate.acquire(evaluation, this.life, this.toRelease.splice(0), batch);
      } catch (err) {
        throw new JudgeError(`judge gate unavailable: ${(err as Error).message}`, true);
      }
      // dropped at the gate: this evaluation ended (cancelled), or a newer run of it took over
      if (lease === null)
        throw new JudgeError("superseded: the judge gate dropped this request (its evaluation ended, or a newer run of it asked)", true);
      try {
        return await attempt();
      } finally {
        // The permit goes back with the next acquire, which a finished call usually triggers within the
        // same turn; if none does, on its own right after this turn.
        this.toRelease.push(lease);
        this.releaseTimer ??= setTimeout(() => this.flush(), 0);
      }
    });
  }

  /** Gives back every permit still held, and waits until the gate has them. */
  async settle(): Promise<void> {
    if (this.releaseTimer) clearTimeout(this.releaseTimer);
    this.flush();
    await Promise.allSettled(this.releasing);
  }

  /** A cancelled evaluation's requests still waiting at the gate are dropped there at once. */
  async forget(evaluation: string, baseUrl: string): Promise<void> {
    await this.gate(baseUrl).forget(evaluation);
  }

  private gate(baseUrl: string): DurableObjectStub<JudgeGate> {
    if (this.gateStub?.baseUrl !== baseUrl) this.gateStub = { baseUrl, stub: judgeGateStub(this.env, baseUrl) };
    return this.gateStub.stub;
  }

  private flush(): void {
    this.releaseTimer = null;
    const leases = this.toRelease.splice(0);
    if (leases.length === 0 || !this.gateStub) return;
    const released = this.gateStub.stub.release(...leases).catch((err: unknown) => console.error("judge gate release failed", err));
    this.releasing.add(released);
    void released.finally(() => this.releasing.delete(released));
  }
}
