import type { Erased } from "../contract/erasure";

/** What can be erased, and so what a tombstone stands for. */
export type ErasureKind = "evaluation" | "batch" | "collection";

/** A tenant erased whole (DELETE /v1/tenants/:tenant) has a tombstone of its own, under this id. */
export const tenantTombstoneId = (tenant: string) => `tenant:${tenant}`;

/** A tombstone as D1 keeps it (src/db/schema.ts, `erasures`). */
export interface Tombstone {
  id: string;
  tenant: string;
  kind: ErasureKind | "tenant";
  state: "erasing" | "erased";
  by: string;
  requestedAt: number;
  erasedAt: number | null;
}

/**
 * What an erase request for `id` of `kind` by `tenant` meets: nothing of it (404), a tombstone it may
 * not see (another tenant's, or of another kind: the same 404 as none), one already erased (the same
 * 200 again), or work to do: an erasure to start, or one cut off in the middle to finish.
 */
export function eraseVerdict(
  tenant: string,
  kind: ErasureKind,
  tombstone: Tombstone | null,
  exists: boolean,
): "not-found" | "done" | "resume" | "start" {
  if (tombstone) {
    if (tombstone.tenant !== tenant || tombstone.kind !== kind) return "not-found";
    return tombstone.state === "erased" ? "done" : "resume";
  }
  return exists ? "start" : "not-found";
}

/** The tombstone as the API shows it; `erasedAt` is when it was asked for until the erasure is done. */
export function erasedView(t: Tombstone): Erased {
  return { id: t.id, status: "erased", erasedAt: new Date(t.erasedAt ?? t.requestedAt).toISOString(), by: t.by };
}

/**
 * The id an API path is about, for the 410 check: `/v1/{evaluations,batches,collections}/:id` and
 * anything under it, except its own erase route (which answers 200 for what it erased). Null for any
 * other path.
 */
export function erasablePath(path: string): { kind: ErasureKind; id: string } | null {
  const m = path.match(/^\/v1\/(evaluations|batches|collections)\/([^/]+)(\/.*)?$/);
  if (!m || m[3] === "/erase") return null;
  const kind = ({ evaluations: "evaluation", batches: "batch", collections: "collection" } as const)[m[1] as "evaluations"];
  try {
    return { kind, id: decodeURIComponent(m[2]) };
  } catch {
    return null; // a malformed escape names nothing; the route answers it
  }
}
