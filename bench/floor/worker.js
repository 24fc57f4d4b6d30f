// The floor bench's Worker (bench/floor.mjs): what workerd itself spends on the parts of one judge call
// the service cannot do without, with none of the service's code: a Durable Object sends the request
// and reads its reply to the end; then also writes a row to its SQLite; then also takes and gives back
// a permit from a second object over RPC, as the service's JudgeGate does.
import { DurableObject } from "cloudflare:workers";

export class Gate extends DurableObject {
  issued = 0;
  acquire() {
    this.issued++;
    return `lease-${this.issued}`;
  }
  release(lease) {
    return lease.length;
  }
}

export class Caller extends DurableObject {
  constructor(ctx, env) {
    super(ctx, env);
    ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS results (i INTEGER PRIMARY KEY, reply TEXT)");
  }

  /** `n` calls, `concurrency` at once; `mode`: "fetch", "fetch+row" or "fetch+row+gate". */
  async run({ url, body, n, concurrency, mode }) {
    const gate = mode.includes("gate") ? this.env.GATE.get(this.env.GATE.idFromName("gate")) : null;
    let next = 0;
    let bytes = 0;
    const one = async (i) => {
      const lease = gate ? await gate.acquire() : null;
      const r = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body });
      const text = await r.text();
      bytes += text.length;
      if (mode.includes("row")) this.ctx.storage.sql.exec("INSERT OR REPLACE INTO results (i, reply) VALUES (?, ?)", i, text.slice(-200));
      if (gate) await gate.release(lease);
    };
    const lane = async () => {
      while (next < n) await one(next++);
    };
    await Promise.all(Array.from({ length: concurrency }, lane));
    return { calls: n, bytes };
  }
}

export default {
  async fetch(request, env) {
    if (request.method !== "POST") return new Response("ok");
    const job = await request.json();
    const caller = env.CALLER.get(env.CALLER.idFromName(job.name ?? "caller"));
    return Response.json(await caller.run(job));
  },
};
