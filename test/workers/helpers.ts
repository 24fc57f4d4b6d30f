import { runInDurableObject } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { inject } from "vitest";
import { TournamentStore } from "../../durable-objects/store";
import type { JudgeLogEntry } from "../support/judge-server";
import { ENDED } from "../../src/model/evaluation";
import { judgeGateStub, tournamentStub } from "../../src/platform/stubs";
import { until } from "../support/poll";

export { until };

export const ADMIN = "test-admin-token";

export async function request(
  method: string,
  path: string,
  options: { key?: string; body?: unknown; raw?: string | ReadableStream<Uint8Array>; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  // a stream is sent as it is read, with no Content-Length
  let body: string | ReadableStream<Uint8Array> | undefined = options.raw;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["content-type"] ??= "application/json";
  }
  const response = await (exports as unknown as { default: Fetcher }).default.fetch(
    new Request(`http://service.test${path}`, { method, headers, body }),
  );
  const text = await response.text();
  let json: any = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: response.status, headers: response.headers, json };
}

/** A new key of `tenant`, with today's full access unless `scopes` says otherwise (erasure needs "admin"). */
export async function newKey(tenant: string, scopes?: ("read" | "write" | "admin")[]): Promise<string> {
  const r = await request("POST", "/v1/keys", { key: ADMIN, body: { tenant, ...(scopes ? { scopes } : {}) } });
  if (r.status !== 201) throw new Error(`could not make a key: ${r.status} ${JSON.stringify(r.json)}`);
  return r.json.key;
}

/** POSTs an evaluation and returns its id; anything but 202 Accepted fails the test. */
export async function postEvaluation(key: string, body: Record<string, unknown>): Promise<string> {
  const r = await request("POST", "/v1/evaluations", { key, body });
  if (r.status !== 202) throw new Error(`POST /v1/evaluations: ${r.status} ${JSON.stringify(r.json)}`);
  return r.json.id;
}

/** Answers whose text carries the quality the test judge will read. */
export function answers(qualities: number[], prefix = "s"): { id: string; text: string }[] {
  return qualities.map((q, i) => ({ id: `${prefix}${i + 1}`, text: `Answer by ${prefix}${i + 1}: q=${q}. The stack is LIFO.` }));
}

/**
 * The evaluation once it has ended (completed, failed or cancelled), read whole; a read that is not a
 * 200 fails at once. It polls as the docs ask a client to: without the texts, and a 429 (the key's read
 * budget of a large running evaluation) is waited out rather than failed.
 */
export async function waitUntilDone(id: string, key: string, timeoutMs = 20_000) {
  const ended = await until(
    `evaluation ${id} to end`,
    async () => {
      const r = await request("GET", `/v1/evaluations/${id}?exclude=texts`, { key });
      if (r.status === 429) return null;
      return r.status !== 200 || ENDED.has(r.json.status) ? r : null;
    },
    timeoutMs,
    // each read of a running evaluation is served by its Durable Object, between its matches: tests
    // that wait on several at once must not crowd out the tournaments they wait for
    100,
  );
  if (ended.status !== 200) throw new Error(`GET ${id}: ${ended.status} ${JSON.stringify(ended.json)}`);
  const r = await request("GET", `/v1/evaluations/${id}`, { key });
  if (r.status !== 200) throw new Error(`GET ${id}: ${r.status} ${JSON.stringify(r.json)}`);
  return r.json;
}

/** What the real judge server was asked for one question. */
export async function judgeLog(tag: string): Promise<JudgeLogEntry[]> {
  const response = await fetch(`http://127.0.0.1:${inject("judgePort")}/log?tag=${encodeURIComponent(tag)}`);
  return response.json();
}

/** Lets the test judge answer the requests it holds open for one question (`[hold-after:N]`, test/support/judge-server.ts). */
export async function releaseJudge(tag: string): Promise<void> {
  await fetch(`http://127.0.0.1:${inject("judgePort")}/release?tag=${encodeURIComponent(tag)}`, { method: "POST" });
}

/**
 * The rows of `table`, or only `tenant`'s: the files of a run share one runtime and its D1 (vitest.config.ts,
 * `isolate: false`), so a test that must see nothing written counts the rows of a tenant of its own.
 */
export async function countRows(table: string, tenant?: string): Promise<number> {
  const query =
    tenant === undefined
      ? env.DB.prepare(`SELECT COUNT(*) AS n FROM ${table}`)
      : env.DB.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE tenant = ?`).bind(tenant);
  const row = await query.first<{ n: number }>();
  return row!.n;
}

export function uniqueTag(name: string): string {
  return `${name}-${crypto.randomUUID().slice(0, 8)}`;
}

/**
 * Until the judge gate (the configured one, unless another is given) runs and queues nothing: a file
 * that started evaluations ends with this, so none of them is still ending (telling the gate) while
 * vitest tears the file's runtime down, which it reports as an error of the run.
 */
export async function gateIdle(timeoutMs?: number, gate = judgeGateStub(env)): Promise<void> {
  await until(
    "the gate idle",
    async () => {
      const a = await gate.admission();
      return a.running === 0 && a.queued === 0;
    },
    timeoutMs,
  );
}

/** A server-sent event as the tests read it. */
export interface SseEvent {
  event: string;
  data: any;
}

/** Reads a server-sent event stream one event at a time: `next()` is null once the stream has ended. */
export function sseReader(response: Response): () => Promise<SseEvent | null> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  return async () => {
    for (;;) {
      const cut = buffer.indexOf("\n\n");
      if (cut >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const event = block.match(/^event: (.*)$/m)?.[1];
        const data = block.match(/^data: (.*)$/m)?.[1];
        if (event && data) return { event, data: JSON.parse(data) };
        continue; // a comment (keep-alive)
      }
      const { value, done } = await reader.read();
      if (done) return null;
      buffer += value;
    }
  };
}

/** What an evaluation's Tournament object has stored: its input and its recorded calls, for a test to replay. */
export async function storedRun(id: string) {
  return runInDurableObject(tournamentStub(env, id), (_instance: unknown, state: DurableObjectState) => {
    const store = new TournamentStore(state.storage);
    return { input: store.input()!, results: store.results() };
  });
}

/** Opens an event stream (or any GET) with `key` and keeps it open: the response, its body unread. */
export function openStream(path: string, key: string): Promise<Response> {
  return (exports as unknown as { default: Fetcher }).default.fetch(
    new Request(`http://service.test${path}`, { headers: { authorization: `Bearer ${key}` } }),
  );
}

/** A stream's text up to its first event (the snapshot); the body stays open and unlocked. */
export async function firstEvent(response: Response): Promise<string> {
  const reader = response.body!.getReader();
  let text = "";
  while (!text.includes("\n\n")) {
    const { value, done } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  return text;
}
