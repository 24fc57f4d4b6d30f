import { type Circuit, closedCircuit, failed, probed, probeDue, probing, succeeded } from "../src/gate/circuit";
import type { Health } from "../src/gate/fair-gate";
import { LatencyWindow } from "../src/gate/latency";
import type { PoolEndpoint } from "../src/judge/pool";
import type { EndpointView } from "../src/gate/judges-view";

/** How one attempt at an endpoint went, as the permit that covered it comes back. */
export type AttemptOutcome = "ok" | "fault" | "none";

interface Endpoint {
  config: PoolEndpoint;
  circuit: Circuit;
  /** Set when its /v1/models does not list the pool's model: never sent to until a probe finds it does. */
  out: string | null;
  listed: string[] | null;
  served: number;
  failed: number;
  latency: LatencyWindow;
  lastProbe: string | null;
}

/**
 * The health of each endpoint of the judge pool, kept by its JudgeGate: a circuit per endpoint fed by
 * the outcomes of the attempts made there, a probe (GET /v1/models, cheap) once an open circuit's
 * backoff has passed, and the served, failed and latency figures for GET /v1/judges. In memory: a
 * restarted gate starts with every circuit closed, and the first faults open them again.
 * `onHealth` is told when an endpoint's health for routing changes.
 */
export class JudgeHealth {
  private readonly endpoints: Map<string, Endpoint>;
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  /** The model the pool serves, once a check or a probe has learnt it. */
  model: string | null;

  constructor(
    pool: readonly PoolEndpoint[],
    private readonly probeTimeoutMs: number,
    private readonly onHealth: (url: string, health: Health) => void,
  ) {
    this.endpoints = new Map(
      pool.map((config) => [
        config.url,
        { config, circuit: closedCircuit(), out: null, listed: null, served: 0, failed: 0, latency: new LatencyWindow(), lastProbe: null },
      ]),
    );
    this.model = pool.find((e) => e.model)?.model ?? null;
  }

  /** An attempt at `url` ended after `ms`: an answer closes its circuit, a fault counts towards opening it. */
  record(url: string, outcome: AttemptOutcome, ms: number, now: number): void {
    const e = this.endpoints.get(url);
    if (!e || outcome === "none") return;
    const before = this.health(e);
    if (outcome === "ok") {
      // an answer there is the best word on it: back in, whatever a probe last found
      e.out = null;
      e.served++;
      e.latency.add(ms, now);
      e.circuit = succeeded(e.circuit);
    } else {
      e.failed++;
      e.circuit = failed(e.circuit, now);
      if (e.circuit.state === "open") this.scheduleProbe(e, now);
    }
    if (this.health(e) !== before) this.onHealth(url, this.health(e));
  }

  /** What each endpoint's /v1/models lists now (null: it did not answer), fetched in parallel; `urls`: only those. */
  async listModels(urls?: readonly string[]): Promise<(string[] | null)[]> {
    const asked = urls ? urls.flatMap((u) => this.endpoints.get(u) ?? []) : [...this.endpoints.values()];
    return Promise.all(
      asked.map(async (e) => {
        const listed = await this.fetchModels(e.config).catch(() => null);
        if (listed) e.listed = listed;
        return listed;
      }),
    );
  }

  view(inFlight: (url: string) => number, now: number): EndpointView[] {
    return [...this.endpoints.values()].map((e) => {
      const q = e.latency.quantiles(now);
      const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());
      return {
        url: e.config.url,
        model: e.config.model ?? e.listed?.[0] ?? null,
        ...(e.config.models ? { models: [...e.config.models] } : {}),
        cap: e.config.maxConcurrency,
        weight: e.config.weight,
        inFlight: inFlight(e.config.url),
        served: e.served,
        failed: e.failed,
        latencyMs: q ? { p50: q.p50, p95: q.p95, calls: q.n } : null,
        circuit: {
          state: e.out ? "out" : e.circuit.state,
          failuresInARow: e.circuit.failures,
          openedAt: e.circuit.state === "closed" ? null : iso(e.circuit.openedAt),
          nextProbeAt: this.endpoints.size === 1 ? null : iso(e.circuit.probeAt),
          reason: e.out ?? (e.circuit.state === "closed" ? null : e.lastProbe),
        },
      };
    });
  }

  private health(e: Endpoint): Health {
    if (e.out) return "out";
    return e.circuit.state === "closed" ? "up" : "down";
  }

  /** A pool of one is not probed: it gets every call whatever its circuit says, and its calls are its probes. */
  private scheduleProbe(e: Endpoint, now: number): void {
    if (this.endpoints.size === 1 || this.timers.has(e.config.url) || e.circuit.probeAt === null) return;
    const timer = setTimeout(() => void this.probe(e), Math.max(0, e.circuit.probeAt - now));
    this.timers.set(e.config.url, timer);
  }

  /**
   * The probe of an open circuit: the endpoint is back when its /v1/models answers and lists the
   * pool's model; one that answers with another model is kept out (grades must not depend on which
   * server answered), and probed again like one that is down.
   */
  private async probe(e: Endpoint): Promise<void> {
    this.timers.delete(e.config.url);
    if (!probeDue(e.circuit, Date.now())) return; // a call succeeded there meanwhile: closed already
    const before = this.health(e);
    e.circuit = probing(e.circuit);
    let listed: string[] | null = null;
    let failure = "";
    try {
      listed = await this.fetchModels(e.config);
    } catch (err) {
      failure = `probe failed: ${(err as Error).message}`;
    }
    // a call that succeeded there while the probe was out has closed the circuit already: that stands
    if (e.circuit.state !== "probing") return;
    // what it must serve: the models it is configured with (a pool of several), else the pool's one
    const wants =
      e.config.models && e.config.models.length > 1
        ? e.config.models
        : [e.config.model ?? this.model].filter((m) => m !== null && m !== undefined);
    if (listed) e.listed = listed;
    const lacking = listed ? wants.filter((w) => !listed.includes(w)) : [];
    // a pool of one has no other server to disagree with: it is back when it answers
    e.out =
      listed && lacking.length > 0 && this.endpoints.size > 1
        ? `it serves ${listed.join(", ") || "no model"}, not ${wants.length > 1 ? `${lacking.join(", ")}, which it is configured to serve` : `the pool's model ${lacking[0]}`}`
        : null;
    e.lastProbe = e.out ?? (failure || null);
    const up = listed !== null && e.out === null;
    const now = Date.now();
    e.circuit = probed(e.circuit, up, now);
    if (!up) this.scheduleProbe(e, now);
    if (this.health(e) !== before) this.onHealth(e.config.url, this.health(e));
  }

  private async fetchModels(config: PoolEndpoint): Promise<string[]> {
    const response = await fetch(`${config.url}/models`, {
      headers: config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {},
      signal: AbortSignal.timeout(this.probeTimeoutMs),
    });
    if (!response.ok) {
      await response.body?.cancel();
      throw new Error(`/v1/models answered ${response.status}`);
    }
    const json = (await response.json()) as { data?: { id?: unknown }[] };
    return (json.data ?? []).flatMap((m) => (typeof m.id === "string" ? [m.id] : []));
  }
}
