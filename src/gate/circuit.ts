/**
 * The health of one judge endpoint, as a circuit breaker: closed (calls go to it) until its calls fail
 * so many times in a row (connection refused, 5xx, timeouts), then open (no calls) until a backoff has
 * passed, then probing (one cheap request decides: it answers, the circuit closes; it fails, it opens
 * again for twice as long, up to a cap). A call that succeeds on the endpoint closes it whatever the
 * state, since that is the best evidence there is. Pure, with the clock passed in.
 */
export type CircuitState = "closed" | "open" | "probing";

export interface Circuit {
  state: CircuitState;
  /** Faults in a row since the last success. */
  failures: number;
  /** Open: when the next probe is due. */
  probeAt: number | null;
  /** The wait before the next probe should this one fail. */
  backoffMs: number;
  /** When the circuit last opened, for GET /v1/judges. */
  openedAt: number | null;
}

export interface CircuitPolicy {
  /** Faults in a row that open the circuit. */
  threshold: number;
  firstBackoffMs: number;
  maxBackoffMs: number;
}

export const circuitPolicy: CircuitPolicy = { threshold: 3, firstBackoffMs: 1_000, maxBackoffMs: 30_000 };

export function closedCircuit(policy: CircuitPolicy = circuitPolicy): Circuit {
  return { state: "closed", failures: 0, probeAt: null, backoffMs: policy.firstBackoffMs, openedAt: null };
}

export function succeeded(_c: Circuit, policy: CircuitPolicy = circuitPolicy): Circuit {
  return closedCircuit(policy);
}

/** A call failed on the endpoint: the threshold-th fault in a row opens the circuit. */
export function failed(c: Circuit, now: number, policy: CircuitPolicy = circuitPolicy): Circuit {
  const failures = c.failures + 1;
  if (c.state !== "closed" || failures < policy.threshold) return { ...c, failures };
  return { state: "open", failures, probeAt: now + c.backoffMs, backoffMs: Math.min(policy.maxBackoffMs, c.backoffMs * 2), openedAt: now };
}

export function probeDue(c: Circuit, now: number): boolean {
  return c.state === "open" && c.probeAt !== null && now >= c.probeAt;
}

export function probing(c: Circuit): Circuit {
  return { ...c, state: "probing", probeAt: null };
}

/** The probe's answer: up closes the circuit, down opens it again for the next, longer, backoff. */
export function probed(c: Circuit, up: boolean, now: number, policy: CircuitPolicy = circuitPolicy): Circuit {
  if (up) return closedCircuit(policy);
  return {
    ...c,
    state: "open",
    probeAt: now + c.backoffMs,
    backoffMs: Math.min(policy.maxBackoffMs, c.backoffMs * 2),
    openedAt: c.openedAt ?? now,
  };
}
