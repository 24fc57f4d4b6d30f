// What GET /v1/judges answers: the judge pool as its JudgeGate sees it. Types only, so the web front
// can name them without the Durable Object's runtime types.

export interface AdmissionStats {
  /** Evaluations running at once at most (JUDGE_MAX_RUNNING). */
  limit: number;
  running: number;
  queued: number;
}

/** The judge pool as GET /v1/judges shows it. */
export interface JudgesView {
  model: string | null;
  /** The models the configuration names (several: each call goes to an endpoint of its model). */
  models?: string[];
  /** Requests open at once over the whole pool, and open now. */
  capacity: number;
  inFlight: number;
  /** Judge calls waiting for a permit: they wait for the pool, and go to whichever endpoint frees first. */
  waiting: number;
  admission: AdmissionStats;
  endpoints: EndpointView[];
}

/** An endpoint as GET /v1/judges shows it (no key: it is shown to every API key). */
export interface EndpointView {
  url: string;
  /** The model it must serve (configured), else the first its /v1/models listed; null before it answered. */
  model: string | null;
  /** Every model it is configured to serve, where configured. */
  models?: string[];
  cap: number;
  weight: number;
  inFlight: number;
  /** Calls answered, and attempts that failed with a fault of the endpoint's, since the gate started. */
  served: number;
  failed: number;
  /** Of the calls answered in the last five minutes, in ms; null with none. */
  latencyMs: { p50: number; p95: number; calls: number } | null;
  circuit: {
    state: "closed" | "open" | "probing" | "out";
    failuresInARow: number;
    openedAt: string | null;
    nextProbeAt: string | null;
    /** Why it is out (it serves another model), or what its last probe met. */
    reason: string | null;
  };
}
