import type { ReleaseMode } from "../contract/names";

/** The latest release row of an answer: released at `at`, or withdrawn at `at`. */
export interface LatestRelease {
  action: "released" | "withdrawn";
  at: number;
}

/**
 * When an answer reached its student, or null while it has not (or its release was withdrawn). A
 * teacher's release or withdrawal decides; without one, an answer of an evaluation released
 * automatically (a collection with `release: "auto"`) is released when grading completed. Pure.
 */
export function releasedAt(latest: LatestRelease | undefined, mode: ReleaseMode, completedAt: number | null): number | null {
  if (latest) return latest.action === "released" ? latest.at : null;
  return mode === "auto" && completedAt !== null ? completedAt : null;
}

export type ReleasePlan = { kind: "unknown"; ids: string[] } | { kind: "change"; ids: string[] };

/**
 * What a release (or a withdrawal) of `asked` changes: the answers not yet in the asked state, in the
 * evaluation's order; none when all are (doing it twice changes nothing). `asked` undefined: every
 * answer. Ids not in the evaluation refuse the whole request, and are named. Pure.
 */
export function planRelease(
  action: "release" | "withdraw",
  asked: readonly string[] | undefined,
  answers: readonly { id: string; releasedAt: number | null }[],
): ReleasePlan {
  const known = new Set(answers.map((a) => a.id));
  const unknown = [...new Set((asked ?? []).filter((id) => !known.has(id)))];
  if (unknown.length) return { kind: "unknown", ids: unknown };
  const wanted = asked ? new Set(asked) : known;
  const ids = answers
    .filter((a) => wanted.has(a.id) && (action === "release" ? a.releasedAt === null : a.releasedAt !== null))
    .map((a) => a.id);
  return { kind: "change", ids };
}

/**
 * When a released grade last changed after its release (a teacher graded again or withdrew the grade),
 * or null: the receipt says "updated" then. Pure.
 */
export function updatedAfterRelease(released: number | null, lastGradeChange: number | null): number | null {
  return released !== null && lastGradeChange !== null && lastGradeChange > released ? lastGradeChange : null;
}
