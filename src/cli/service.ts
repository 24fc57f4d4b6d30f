// The CLI's side of the HTTP API: create evaluations, poll them, a bounded number at a time.

import type { EvaluationResult } from "./items";

export interface Service {
  url: string;
  key: string;
}

export class ServiceError extends Error {}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One request; connection errors, 429 and 5xx are retried with backoff, other errors are final. */
async function call(service: Service, method: string, path: string, body?: unknown): Promise<any> {
  let lastError = "";
  for (let attempt = 0; attempt < 6; attempt++) {
    if (attempt > 0) await sleep(Math.min(10_000, 250 * 2 ** attempt) * (0.5 + Math.random() / 2));
    let response: Response;
    try {
      response = await fetch(`${service.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${service.key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (err) {
      lastError = `${method} ${path}: ${(err as Error).message}`;
      continue;
    }
    const text = await response.text();
    if (response.ok) return JSON.parse(text);
    let detail = text;
    try {
      detail = JSON.parse(text).detail ?? text;
    } catch {}
    lastError = `${method} ${path}: ${response.status} ${detail}`;
    if (response.status !== 429 && response.status < 500) break;
  }
  throw new ServiceError(lastError);
}

export interface Graded {
  id: string | null;
  result: (EvaluationResult & { matches?: { a: string; b: string | null; scoreA: number | null; scoreB: number | null }[]; error?: string }) | null;
  error: string | null;
}

/** Creates one evaluation and waits for it; a failure is reported, never thrown, so one question cannot sink a run. */
export async function grade(service: Service, body: Record<string, unknown>, pollMs = 250): Promise<Graded> {
  let id: string | null = null;
  try {
    id = (await call(service, "POST", "/v1/evaluations", body)).id as string;
    for (;;) {
      const result = await call(service, "GET", `/v1/evaluations/${id}`);
      if (result.status === "completed" || result.status === "failed") return { id, result, error: result.error ?? null };
      await sleep(pollMs);
    }
  } catch (err) {
    return { id, result: null, error: (err as Error).message };
  }
}

/** Runs `work` over the items with at most `concurrency` in flight; results keep the items' order. */
export async function pool<T, R>(items: readonly T[], concurrency: number, work: (item: T, index: number) => Promise<R>, onDone?: (done: number) => void): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i], i);
      onDone?.(++done);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}
