/**
 * At most `limit` holders at once inside one object, the rest in line (first come, first served).
 * A Tournament Durable Object keeps its own judge requests at or below the platform's limit on
 * simultaneous outbound connections per invocation (6 on Cloudflare): a seventh fetch would wait
 * inside the runtime with its timeout already running, and time out for a queue, not for the judge.
 */
export class Semaphore {
  private free: number;
  private readonly line: (() => void)[] = [];

  constructor(readonly limit: number) {
    if (!(limit >= 1)) throw new RangeError("limit must be at least 1");
    this.free = limit;
  }

  async use<T>(work: () => Promise<T>): Promise<T> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((go) => this.line.push(go));
    try {
      return await work();
    } finally {
      const next = this.line.shift();
      if (next) next();
      else this.free++;
    }
  }

  get waiting(): number {
    return this.line.length;
  }
}
