import { gameFromScores, type Game } from "../ratings/games";

// An exam is a batch of questions whose answers name their examinee (a student, a model). Pure: the
// routes read rows from D1, these turn them into exam scores and games.

export interface ExamAnswer {
  examinee: string | null;
  score: number | null;
}

export interface ExamineeTotal {
  examinee: string;
  /** Sum of the examinee's question scores: SciEx's exam-level score. */
  total: number;
  /** Questions where the examinee's answer got a score. */
  questionsAnswered: number;
}

/**
 * Per examinee, the sum of its scores and how many questions it answered, best total first (ties by
 * name, so the order is stable). Unlabelled answers and answers without a score (a failed question)
 * count for nobody: an unscored answer is not a zero.
 */
export function examTotals(answers: readonly ExamAnswer[]): ExamineeTotal[] {
  const totals = new Map<string, ExamineeTotal>();
  for (const a of answers) {
    if (a.examinee === null) continue;
    const row = totals.get(a.examinee) ?? { examinee: a.examinee, total: 0, questionsAnswered: 0 };
    if (a.score !== null) {
      row.total += a.score;
      row.questionsAnswered += 1;
    }
    totals.set(a.examinee, row);
  }
  return [...totals.values()].sort((x, y) => y.total - x.total || (x.examinee < y.examinee ? -1 : x.examinee > y.examinee ? 1 : 0));
}

export interface ExamMatch {
  /** The question's position in the batch: its games form one rating period (Glicko-2). */
  question: number;
  examineeA: string | null;
  examineeB: string | null;
  scoreA: number | null;
  scoreB: number | null;
}

/**
 * Every decided match between two answers with different examinee labels is a game between those
 * examinees (seeds/002): the higher match score wins, equal scores draw. Pointwise judgments (no
 * second answer) and matches of an examinee against itself are not games.
 */
export function examGames(matches: readonly ExamMatch[]): Game[] {
  return matches.flatMap((m) =>
    m.examineeA !== null && m.examineeB !== null && m.examineeA !== m.examineeB && m.scoreA !== null && m.scoreB !== null
      ? [gameFromScores(m.examineeA, m.scoreA, m.examineeB, m.scoreB, m.question)]
      : [],
  );
}

export interface BatchProgress {
  /** Questions that have ended: completed, failed or cancelled. */
  done: number;
  total: number;
  failed: number;
  cancelled: number;
  status: "running" | "completed" | "failed";
}

/**
 * Where a batch stands, from how many of its questions ended and how. A cancelled question has ended
 * as surely as a failed one: without it counted, a batch with one cancelled question would never
 * finish. A batch fails only when no question completed.
 */
export function batchProgress(total: number, ended: { completed: number; failed: number; cancelled: number }): BatchProgress {
  const { failed, cancelled } = ended;
  const done = ended.completed + failed + cancelled;
  const status = done < total ? "running" : failed + cancelled === total ? "failed" : "completed";
  return { done, total, failed, cancelled, status };
}
