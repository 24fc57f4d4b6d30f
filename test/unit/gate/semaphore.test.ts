import { describe, expect, it } from "vitest";
import { Semaphore } from "../../../src/gate/semaphore";

describe("a tournament's own cap on open requests", () => {
  it("runs at most `limit` at once, the rest in arrival order, and frees a place when work fails", async () => {
    const sem = new Semaphore(2);
    let open = 0;
    let most = 0;
    const started: number[] = [];
    const gates: (() => void)[] = [];
    const jobs = [0, 1, 2, 3, 4].map((i) =>
      sem.use(async () => {
        started.push(i);
        open++;
        most = Math.max(most, open);
        await new Promise<void>((go) => gates.push(go));
        open--;
        if (i === 1) throw new Error("judge failed");
        return i;
      }),
    );
    const settledAll = Promise.allSettled(jobs); // handled from the start: job 1's rejection is expected
    const flush = () => new Promise((r) => setTimeout(r, 0));
    await flush();
    expect(started).toEqual([0, 1]);
    expect(sem.waiting).toBe(3);
    while (gates.length) {
      gates.shift()!();
      await flush();
    }
    // each release let exactly the next one in
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect(most).toBe(2);
    const settled = await settledAll;
    expect(settled.map((s) => s.status)).toEqual(["fulfilled", "rejected", "fulfilled", "fulfilled", "fulfilled"]);
    expect(sem.waiting).toBe(0);
  });

  it("refuses a limit below 1", () => {
    expect(() => new Semaphore(0)).toThrow(RangeError);
  });
});
