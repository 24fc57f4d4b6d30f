import { type DiagnosedMatch, type JudgeDiagnostics, judgeDiagnostics } from "../core/diagnostics";
import type { Outcome } from "../model/evaluation";

/**
 * An evaluation's judge diagnostics (src/core/diagnostics.ts) from its outcome, whose answers carry their
 * texts: computed with the rest of the result, so the running object's copy of it (one per state) and
 * D1's read show the same figures from the same calls.
 */
export function outcomeDiagnostics(outcome: Pick<Outcome, "answers" | "matches">): JudgeDiagnostics {
  const lengths = new Map(outcome.answers.map((a) => [a.id, characters(a.text ?? "")]));
  const matches: DiagnosedMatch[] = outcome.matches.map((m) => ({
    ...m,
    lengthA: lengths.get(m.a) ?? 0,
    lengthB: m.b === null ? null : (lengths.get(m.b) ?? 0),
  }));
  return judgeDiagnostics(matches);
}

/** A text's length in characters (code points, as SQLite's length() counts them), not UTF-16 units. */
export function characters(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}
