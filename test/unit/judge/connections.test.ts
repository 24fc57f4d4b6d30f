import { describe, expect, it } from "vitest";
import { HeaderWait } from "../../../src/judge/connections";

/** A fetch whose responses the test hands out: each call waits until `answer(i)`. */
function heldFetch() {
  const pending: ((r: Response) => void)[] = [];
  const started: string[] = [];
  const send = (input: string) => {
    started.push(input);
    return new Promise<Response>((resolve) => pending.push(resolve));
  };
  return { send, started, answer: (i: number) => pending[i](new Response("ok")) };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe("Cloudflare's six connections waiting for headers, kept locally", () => {
  it("lets six wait for headers, a seventh waits in line until one has its headers, first come first served", async () => {
    const judge = heldFetch();
    const wait = new HeaderWait(6, judge.send);
    const calls = Array.from({ length: 9 }, (_, i) => wait.fetch(`r${i}`));
    await tick();
    expect(judge.started).toEqual(["r0", "r1", "r2", "r3", "r4", "r5"]);
    expect(wait.inFlight).toBe(6);
    judge.answer(2);
    await calls[2];
    await tick();
    expect(judge.started).toHaveLength(7);
    expect(judge.started[6]).toBe("r6");
    judge.answer(0);
    judge.answer(1);
    await tick();
    expect(judge.started.slice(7)).toEqual(["r7", "r8"]);
    expect(wait.inFlight).toBe(6);
    for (const i of [3, 4, 5, 6, 7, 8]) judge.answer(i);
    await Promise.all(calls);
    expect(wait.inFlight).toBe(0);
  });

  it("a request aborted while in line leaves the line without being sent; with limit 0 the rule is off", async () => {
    const judge = heldFetch();
    const wait = new HeaderWait(1, judge.send);
    const first = wait.fetch("a");
    const control = new AbortController();
    const second = wait.fetch("b", { signal: control.signal });
    control.abort(new Error("timed out in line"));
    await expect(second).rejects.toThrow("timed out in line");
    judge.answer(0);
    await first;
    expect(judge.started).toEqual(["a"]);
    expect(wait.inFlight).toBe(0);

    const open = heldFetch();
    const off = new HeaderWait(0, open.send);
    for (let i = 0; i < 10; i++) void off.fetch(`x${i}`);
    await tick();
    expect(open.started).toHaveLength(10);
  });
});
