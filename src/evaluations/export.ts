import { collectionSnapshot, collectionsAfter, evaluationSnapshot, evaluationsAfter, type Position } from "../db/export";
import { collectionLines, evaluationLines } from "./export-lines";

/** Ids read per page of the cursor; each item is then read (and sent) on its own. */
const PAGE = 50;

/**
 * The tenant's data (or, with `person`, one examinee's answers and the collection answers submitted
 * under that name) as an NDJSON stream: evaluations oldest first, then collections. The stream is
 * pulled: the next item is read from D1 only when the reader has taken the last, so at most one page of
 * ids and one item's rows are held whatever the tenant's size. Each item is read in one transaction and
 * left out if its erasure has begun (src/db/export.ts): an erasure running meanwhile removes whole items
 * from the export, never half of one.
 */
export function exportStream(env: Env, tenant: string, person: string | null): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const phases = [
    {
      page: (after: Position | null) => evaluationsAfter(env.DB, tenant, after, PAGE, person),
      lines: async (id: string) => {
        const s = await evaluationSnapshot(env.DB, tenant, id, person);
        return s ? evaluationLines(s) : [];
      },
    },
    {
      page: (after: Position | null) => collectionsAfter(env.DB, tenant, after, PAGE, person),
      lines: async (id: string) => {
        const s = await collectionSnapshot(env.DB, tenant, id, person);
        return s ? collectionLines(s) : [];
      },
    },
  ];
  let phase = 0;
  let after: Position | null = null;
  let queue: Position[] = [];
  let ended = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        while (phase < phases.length) {
          const next = queue.shift();
          if (next) {
            const lines = await phases[phase].lines(next.id);
            if (lines.length > 0) return controller.enqueue(encoder.encode(lines.join("")));
            continue;
          }
          if (ended) {
            phase++;
            after = null;
            ended = false;
            continue;
          }
          queue = await phases[phase].page(after);
          after = queue.at(-1) ?? after;
          ended = queue.length < PAGE;
        }
        controller.close();
      },
    },
    // nothing read ahead: an item is read from D1 when the reader asks for it, so the reader's pace
    // sets the reads' and the stream holds one item at most
    { highWaterMark: 0 },
  );
}
