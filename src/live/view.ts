import type { MatchView, Outcome, Status, Usage } from "../model/evaluation";
import { matchResult } from "../core/outcome";

/** A match as the live bracket shows it: scores and winner, without the judge's texts (those come at the end). */
export interface LiveMatch {
  index: number;
  round: number;
  a: string;
  /** null for a pointwise judgment (method individual): one answer, one score. */
  b: string | null;
  scoreA: number | null;
  scoreB: number | null;
  winner: string | null;
  /** How many of the match's judge calls have a result. */
  callsDone: number;
  /** Played after the knockout with the evaluation's extra calls: it decides nothing. */
  extra?: true;
}

export interface Progress {
  /** Judge calls with a recorded result. */
  done: number;
  /** Judge calls the method makes in all for these answers. */
  total: number;
}

/** What a viewer of a running evaluation is sent: first in full, then only the matches that changed. */
export interface LiveView {
  id: string;
  status: Status;
  error: string | null;
  method: string;
  answerCount: number;
  /** In the snapshot only: the bracket shows who sits out a round (a bye) from it. */
  answerIds?: string[];
  maxScore: number;
  champion: string | null;
  progress: Progress;
  /** With `feedback: "judge"`: the feedback calls that have ended (written or failed), of one per answer. */
  feedback?: Progress;
  usage: Usage;
  matches: LiveMatch[];
}

export function liveMatches(matches: MatchView[]): LiveMatch[] {
  return matches.map((m, index) => ({
    index,
    ...matchResult(m),
    callsDone: m.calls.length,
    ...(m.extra ? { extra: true as const } : {}),
  }));
}

export function liveView(
  head: { id: string; method: string; answerCount: number; answerIds?: string[]; maxScore: number; status: Status; error: string | null },
  outcome: Outcome,
  usage: Usage,
  total: number,
): LiveView {
  return { ...head, champion: outcome.champion, progress: { done: usage.judgeCalls, total }, usage, matches: liveMatches(outcome.matches) };
}

/**
 * The matches of `next` that differ from what was last sent (`sent`: one JSON text per match index).
 * Viewers apply them as upserts by index, so sending a match twice is harmless, and a viewer whose
 * snapshot is newer than `sent` only receives some matches it already has.
 */
export function changedMatches(sent: readonly string[], next: readonly LiveMatch[]): { changed: LiveMatch[]; sent: string[] } {
  const texts = next.map((m) => JSON.stringify(m));
  return { changed: next.filter((_, i) => texts[i] !== sent[i]), sent: texts };
}

/** One server-sent event. `data` is JSON on one line, so no line of it can end the event early. */
export function sseEvent(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}
