import type { Context } from "hono";
import { defaultStreamsPerKey, renewEveryMs } from "../limits/stream-leases";
import { ProblemError, problemResponse } from "../platform/problems";
import { rateLimiterStub } from "../platform/stubs";
import type { App } from "./context";
import { decimalInteger } from "./query-number";

/** How soon a refused viewer may try again: a place frees as soon as one of the key's streams closes. */
const retryAfterSeconds = 10;

/** STREAMS_PER_KEY: event streams one API key may have open at once (default 32). */
export function streamsPerKey(value: string | undefined): number {
  if (value === undefined || value.trim() === "") return defaultStreamsPerKey;
  const n = decimalInteger(value.trim());
  if (n === null || n < 1) throw new ProblemError(503, "the service is misconfigured: STREAMS_PER_KEY is not a whole number of at least 1");
  return n;
}

/**
 * Opens an event stream under the key's cap on streams open at once, or answers 429. Every viewer holds
 * a stream, its object's memory and a place in its broadcast, so without a cap one key's thousand
 * viewers slow everyone's reads. The count is the key's RateLimiter object's, exact across Worker
 * instances; the place is given back when the stream ends or its viewer goes away, and an open stream
 * renews it as its events (a keep-alive at least every 20 s) pass, so a crashed Worker's places expire.
 */
export async function withStreamSlot(c: Context<App>, open: () => Promise<Response>): Promise<Response> {
  const cap = streamsPerKey(c.env.STREAMS_PER_KEY);
  const slots = rateLimiterStub(c.env, c.get("keyHash"));
  const lease = await slots.openStream(cap);
  if (lease === null) {
    return problemResponse(
      429,
      `this API key already has ${cap} event streams open, the most it may; close one (or wait ${retryAfterSeconds} s) and try again`,
      { headers: { "retry-after": String(retryAfterSeconds) } },
    );
  }
  let released = false;
  const release = async () => {
    if (released) return;
    released = true;
    await slots.closeStream(lease).catch((err) => console.error("could not give back an event stream's place", err));
  };
  let response: Response;
  try {
    response = await open();
  } catch (err) {
    await release();
    throw err;
  }
  if (!response.body) {
    await release();
    return response;
  }
  const reader = response.body.getReader();
  let renewedAt = Date.now();
  const held = new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (err) {
        await release();
        controller.error(err);
        return;
      }
      if (chunk.done) {
        await release();
        controller.close();
        return;
      }
      controller.enqueue(chunk.value);
      if (Date.now() - renewedAt >= renewEveryMs) {
        renewedAt = Date.now();
        await slots.renewStream(lease).catch((err) => console.error("could not renew an event stream's place", err));
      }
    },
    async cancel(reason) {
      // the viewer went away
      await release();
      await reader.cancel(reason).catch(() => {});
    },
  });
  return new Response(held, { status: response.status, headers: response.headers });
}
