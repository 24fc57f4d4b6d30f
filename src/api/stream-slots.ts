import type { Context } from "hono";
import { eq } from "drizzle-orm";
import { database } from "../db/database";
import { apiKeys } from "../db/schema";
import { defaultStreamsPerKey, nextKeyCheckAt, renewEveryMs } from "../limits/stream-leases";
import { readConfig } from "../platform/config";
import { ProblemError, problemResponse } from "../platform/problems";
import { rateLimiterStub } from "../platform/stubs";
import { keyRefusal } from "./access";
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
 *
 * The stream lasts no longer than its key: it ends at the key's `expiresAt`, and a revoked key's
 * streams end within STREAM_KEY_CHECK_MS (see watchKey). A viewer that reconnects then gets a 401.
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
  // the stream has ended (its object ended it, its viewer went away, or its key no longer holds)
  let over = false;
  let watch: { stop(): void } | null = null;
  const held = new ReadableStream<Uint8Array>({
    start(controller) {
      watch = watchKey(c.env, { id: c.get("keyId"), expiresAt: c.get("keyLimits").expiresAt }, async (refusal) => {
        if (over) return;
        over = true;
        // a comment: an EventSource ignores it, a person reading the stream sees why it ends
        controller.enqueue(new TextEncoder().encode(`: this stream ends: its API key no longer holds (${refusal})\n\n`));
        controller.close();
        await release();
        // the object's stream is cancelled: its next write fails and it forgets this viewer
        await reader.cancel("the API key no longer holds").catch(() => {});
      });
    },
    async pull(controller) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (err) {
        if (over) return;
        over = true;
        watch?.stop();
        await release();
        controller.error(err);
        return;
      }
      // the key's end cancelled the read
      if (over) return;
      if (chunk.done) {
        over = true;
        watch?.stop();
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
      over = true;
      watch?.stop();
      await release();
      await reader.cancel(reason).catch(() => {});
    },
  });
  return new Response(held, { status: response.status, headers: response.headers });
}

/**
 * Looks at the key a stream was opened with until it no longer holds, then calls `ended` with why (the
 * 401's wording). It looks at the key's `expiresAt`, when it has one, and every STREAM_KEY_CHECK_MS
 * (default 30 s) reads its row (one D1 row by primary key): revoked, expired or gone ends the stream. A
 * read that fails is tried again next time; an expiry ends the stream without one.
 */
function watchKey(env: Env, key: { id: string; expiresAt: number | null }, ended: (refusal: string) => Promise<void>): { stop(): void } {
  const everyMs = readConfig(env).streamKeyCheckMs;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const schedule = () => {
    if (stopped) return;
    const now = Date.now();
    timer = setTimeout(check, nextKeyCheckAt(now, key.expiresAt, everyMs) - now);
  };
  const check = async () => {
    if (stopped) return;
    const now = Date.now();
    let refusal = keyRefusal({ revokedAt: null, expiresAt: key.expiresAt }, now);
    if (refusal === null) {
      try {
        const row = await database(env.DB).query.apiKeys.findFirst({
          columns: { revokedAt: true, expiresAt: true },
          where: eq(apiKeys.id, key.id),
        });
        refusal = row ? keyRefusal(row, Date.now()) : "unknown API key";
      } catch (err) {
        console.error("an event stream could not look its API key up; it tries again", err);
      }
    }
    if (stopped) return;
    if (refusal === null) schedule();
    else {
      stopped = true;
      await ended(refusal).catch((err) => console.error("an event stream whose key no longer holds did not end cleanly", err));
    }
  };
  schedule();
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
