import { Semaphore } from "../src/gate/semaphore";
import { isEndpointFault, JudgeError, type JudgeRoute, JudgeSkipped, type JudgeTarget } from "../src/judge/client";
import type { PoolEndpoint } from "../src/judge/pool";
import type { JudgeGate, Released } from "./judge-gate";
import { judgeGateStub } from "../src/platform/stubs";

/**
 * A tournament's permits to call the judge, under both caps: its own (Cloudflare's connections per
 * invocation, JUDGE_MAX_IN_FLIGHT) and the pool's JudgeGate (requests open at each endpoint across all
 * evaluations, fair between evaluations). The gate says which endpoint a permit is for; the permit
 * goes back with how the attempt went there, which is how the gate learns an endpoint's health. A
 * permit covers one HTTP attempt, never a retry's backoff.
 */
export class JudgePermits {
  private readonly outbound: Semaphore;
  /** One life of the object, so the gate can drop permits a crashed earlier life still held. */
  private readonly life = crypto.randomUUID();
  /** Leases done with, to go back to the gate with the next acquire (or on their own, a moment later). */
  private toRelease: Released[] = [];
  private releaseTimer: ReturnType<typeof setTimeout> | null = null;
  /** Releases sent but not yet confirmed; a pump waits for them before it ends. */
  private readonly releasing = new Set<Promise<void>>();
  /** The gate's stub, made once: idFromName hashes the name, which is not free on every call. */
  private readonly gateStub: DurableObjectStub<JudgeGate>;
  private readonly endpoints: Map<string, PoolEndpoint>;

  /** `gateKey`: the pool's gate (JudgePool.key); `endpoints`: the pool's, for their keys. */
  constructor(env: Env, maxInFlight: number, gateKey: string, endpoints: readonly PoolEndpoint[]) {
    this.outbound = new Semaphore(maxInFlight);
    this.gateStub = judgeGateStub(env, gateKey);
    this.endpoints = new Map(endpoints.map((e) => [e.url, e]));
  }

  /**
   * Runs one request to the judge for `evaluation` once both caps allow it, on the endpoint its permit
   * is for; `avoid` is the endpoint the call's last attempt failed on; `route` the models it may be
   * asked of (a panel's), the gate choosing which. A judge the gate skips throws JudgeSkipped.
   */
  use<T>(evaluation: string, attempt: (target: JudgeTarget) => Promise<T>, batch = false, avoid?: string, route?: JudgeRoute): Promise<T> {
    return this.outbound.use(async () => {
      let permit: Awaited<ReturnType<JudgeGate["acquire"]>>;
      try {
        permit = await this.gateStub.acquire(evaluation, this.life, this.toRelease.splice(0), batch, avoid, route);
      } catch (err) {
        throw new JudgeError(`judge gate unavailable: ${(err as Error).message}`, true);
      }
      // dropped at the gate: this evaluation ended (cancelled), or a newer run of it took over
      if (permit === null)
        throw new JudgeError("superseded: the judge gate dropped this request (its evaluation ended, or a newer run of it asked)", true);
      if ("skipped" in permit) throw new JudgeSkipped(permit.skipped);
      const known = this.endpoints.get(permit.endpoint);
      const target: JudgeTarget = {
        url: permit.endpoint,
        ...(known?.apiKey ? { apiKey: known.apiKey } : {}),
        ...(permit.model ? { model: permit.model } : {}),
      };
      let outcome: Released["outcome"] = "none";
      try {
        const result = await attempt(target);
        outcome = "ok";
        return result;
      } catch (err) {
        if (isEndpointFault(err)) outcome = "fault";
        throw err;
      } finally {
        // The permit goes back with the next acquire, which a finished call usually triggers within the
        // same turn; if none does, on its own right after this turn.
        this.toRelease.push({ lease: permit.lease, outcome });
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

  private flush(): void {
    this.releaseTimer = null;
    const leases = this.toRelease.splice(0);
    if (leases.length === 0) return;
    const released = this.gateStub.release(...leases).catch((err: unknown) => console.error("judge gate release failed", err));
    this.releasing.add(released);
    void released.finally(() => this.releasing.delete(released));
  }
}
