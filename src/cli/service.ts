// The CLI's side of the HTTP API: create evaluations, poll them, a bounded number at a time.

import { type EvaluationRequest, knockoutJudge } from "../client/index.ts";
import type { EvaluationResult } from "./items";

export interface Service {
  url: string;
  key: string;
  /** Default: the global fetch (a test passes the Worker's). */
  fetch?: typeof fetch;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The typed API client (src/client) for this run's service and key. */
const client = (service: Service) =>
  knockoutJudge({ baseUrl: service.url, key: service.key, ...(service.fetch ? { fetch: service.fetch } : {}) });

export interface Graded {
  id: string | null;
  result:
    | (EvaluationResult & { matches?: { a: string; b: string | null; scoreA: number | null; scoreB: number | null }[]; error?: string })
    | null;
  error: string | null;
}

/** Creates one evaluation and waits for it; a failure is reported, never thrown, so one question cannot sink a run. */
export async function grade(service: Service, body: Record<string, unknown>, pollMs = 250): Promise<Graded> {
  let id: string | null = null;
  try {
    const api = client(service);
    id = (await api.createEvaluation(body as EvaluationRequest)).id;
    for (;;) {
      const result = await api.evaluation(id);
      if (result.status === "completed" || result.status === "failed")
        return { id, result: result as Graded["result"], error: result.error ?? null };
      await sleep(pollMs);
    }
  } catch (err) {
    return { id, result: null, error: (err as Error).message };
  }
}

/** Runs `work` over the items with at most `concurrency` in flight; results keep the items' order. */
export async function pool<T, R>(
  items: readonly T[],
  concurrency: number,
  work: (item: T, index: number) => Promise<R>,
  onDone?: (done: number) => void,
): Promise<R[]> {
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

/**
 * The questions as one batch per 1,000 (the service's limit): the service starts them all, the CLI
 * polls the batches' progress and then reads each question's result. Also returns each batch's
 * record (exam level) and its examinee ratings when the service has any (409 otherwise).
 */
export async function gradeAsBatches(
  service: Service,
  bodies: Record<string, unknown>[],
  onProgress: (done: number, failed: number) => void,
  pollMs = 500,
): Promise<{ graded: Graded[]; batches: { id: string; record: any; ratings: any | null }[] }> {
  const api = client(service);
  const size = 1_000;
  const ids: string[] = [];
  for (let i = 0; i < bodies.length; i += size) ids.push((await api.createBatch({ items: bodies.slice(i, i + size) })).id);
  const records = new Map<string, any>();
  for (;;) {
    for (const id of ids) records.set(id, await api.batch(id));
    const all = [...records.values()];
    onProgress(
      all.reduce((s, r) => s + r.progress.done, 0),
      all.reduce((s, r) => s + r.progress.failed, 0),
    );
    if (all.every((r) => r.status !== "running")) break;
    await sleep(pollMs);
  }
  const evaluationIds = ids.flatMap((id) => records.get(id).evaluations as string[]);
  const graded = await pool(evaluationIds, 8, async (id): Promise<Graded> => {
    try {
      const result = await api.evaluation(id);
      return { id, result: result as Graded["result"], error: result.error ?? null };
    } catch (err) {
      return { id, result: null, error: (err as Error).message };
    }
  });
  const batches = await Promise.all(
    ids.map(async (id) => ({
      id,
      record: records.get(id),
      ratings: await api.batchRatings(id).catch(() => null),
    })),
  );
  return { graded, batches };
}

/** The service's estimate of grading these evaluations (`POST /v1/batches?dryRun=true`, 1,000 a batch), added up. */
export async function estimateRequests(service: Service, bodies: Record<string, unknown>[]) {
  const total = { judgeCalls: 0, promptTokens: 0, completionTokens: 0, seconds: 0, basis: {} as Record<string, unknown> };
  for (let i = 0; i < bodies.length; i += 1000) {
    const e = await client(service).estimateBatch({ items: bodies.slice(i, i + 1000) });
    total.judgeCalls += e.judgeCalls;
    total.promptTokens += e.promptTokens;
    total.completionTokens += e.completionTokens;
    total.seconds += e.seconds;
    total.basis = e.basis;
  }
  return total;
}
