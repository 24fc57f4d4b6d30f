/**
 * Cloudflare's rule, kept locally: an invocation may have six outbound connections waiting for their
 * response headers; a seventh fetch waits inside the runtime, its timeout already running, until one of
 * the six has its headers. `wrangler dev` does not enforce it, so a local run would flatter us: every
 * judge request of a Durable Object goes through one of these (per object instance), in tests, in the
 * bench and in `npm start` alike. A streamed request gets its headers at once (vLLM sends them before
 * the request has a GPU slot) and frees its place; a request that is not streamed holds it until the
 * whole reply is ready.
 */
export class HeaderWait {
  private waiting = 0;
  private readonly line: (() => void)[] = [];

  /** `limit` 0 switches the rule off; `send` is the fetch underneath (the runtime's). */
  constructor(
    readonly limit: number,
    private readonly send: (input: string, init?: RequestInit) => Promise<Response> = (input, init) => fetch(input, init),
  ) {}

  /** `fetch`, under the rule. An abort while in line rejects as the runtime's fetch would. */
  fetch = async (input: string, init?: RequestInit): Promise<Response> => {
    if (this.limit <= 0) return this.send(input, init);
    if (this.waiting < this.limit) this.waiting++;
    else await this.inLine(init?.signal ?? undefined); // the place is handed over, already counted
    try {
      return await this.send(input, init);
    } finally {
      const next = this.line.shift();
      if (next) next();
      else this.waiting--;
    }
  };

  /** Requests now waiting for their headers (at most `limit`). */
  get inFlight(): number {
    return this.waiting;
  }

  private inLine(signal: AbortSignal | undefined): Promise<void> {
    return new Promise<void>((go, fail) => {
      const turn = () => {
        signal?.removeEventListener("abort", abandon);
        go();
      };
      const abandon = () => {
        const at = this.line.indexOf(turn);
        if (at >= 0) this.line.splice(at, 1);
        fail(signal?.reason ?? new DOMException("aborted", "AbortError"));
      };
      if (signal?.aborted) return abandon();
      signal?.addEventListener("abort", abandon, { once: true });
      this.line.push(turn);
    });
  }
}
