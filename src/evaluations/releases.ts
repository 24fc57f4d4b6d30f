import type { ReleaseMode } from "../contract";
import { collectionById, type CollectionSettings } from "../db/collections";
import { database } from "../db/database";
import { latestReleases } from "../db/releases";
import { releasedAt } from "../teacher/release";

/** What the release state of an evaluation's answers depends on besides its release rows. */
export interface ReleaseContext {
  id: string;
  tenant: string;
  status: string;
  completedAt: number | null;
  metadata: unknown;
}

/** The collection an evaluation grades (the closing names it in the metadata), if it is the tenant's. */
export async function collectionOf(env: Env, row: Pick<ReleaseContext, "tenant" | "metadata">) {
  const id = (row.metadata as { collectionId?: unknown } | null)?.collectionId;
  if (typeof id !== "string") return null;
  const collection = await collectionById(database(env.DB), id);
  return collection && collection.tenant === row.tenant ? collection : null;
}

/**
 * How an evaluation's answers reach students: a collection's own setting; a collection stored before
 * the setting showed grades at once, so it stays "auto"; an evaluation of the API is released by hand.
 */
export function releaseModeOf(collection: { settings: unknown } | null): ReleaseMode {
  if (!collection) return "manual";
  return (collection.settings as CollectionSettings).release ?? "auto";
}

/** When an answer of the evaluation was released (unix ms), or null: a lookup by answer id; none before it completes. */
export async function releaseTimes(env: Env, row: ReleaseContext, mode: ReleaseMode): Promise<(answerId: string) => number | null> {
  if (row.status !== "completed") return () => null;
  const latest = await latestReleases(database(env.DB), row.id);
  return (answerId) => releasedAt(latest.get(answerId), mode, row.completedAt);
}

/** The view with each answer's `releasedAt` (ISO 8601, or null). */
export async function withReleases<V extends { answers: { id: string }[] }>(env: Env, row: ReleaseContext, view: V) {
  const times = await releaseTimes(env, row, releaseModeOf(await collectionOf(env, row)));
  return {
    ...view,
    answers: view.answers.map((a) => {
      const at = times(a.id);
      return { ...a, releasedAt: at === null ? null : new Date(at).toISOString() };
    }),
  };
}
