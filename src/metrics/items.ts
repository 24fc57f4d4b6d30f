// The unit every metric is computed from: one answer to one question, with the judge's score and
// the human experts' score.

export interface GradedItem {
  questionId: string;
  answerId: string;
  /** Who wrote the answer (a student, an MT system, a model); enables the exam level. */
  examinee?: string;
  /** Null when the judge produced no usable score; such answers are left out and counted. */
  judgeScore: number | null;
  humanScore: number;
  /**
   * Knockout only: the 1-based round in which the answer lost, null for the question's champion,
   * absent for methods without elimination.
   */
  eliminatedInRound?: number | null;
  /**
   * Knockout only: how many matches the answer was graded in (its match scores). An answer with the
   * bye in round 1 that loses in round 2 was eliminated in a later round yet graded once.
   */
  timesGraded?: number;
  /** A teacher's grade of the answer, where the dataset has one. */
  teacherScore?: number;
}

/** An item that has both scores and so can enter a metric. */
export interface ScoredItem extends GradedItem {
  judgeScore: number;
}

export interface QuestionGroup {
  questionId: string;
  items: ScoredItem[];
}

/**
 * Rejects inputs that would make every number downstream wrong rather than merely missing:
 * a duplicated answer would be counted twice, a non-numeric human score or round is a reading bug.
 */
export function validateItems(items: readonly GradedItem[]): void {
  const seen = new Set<string>();
  items.forEach((item, index) => {
    const key = JSON.stringify([item.questionId, item.answerId]);
    if (seen.has(key)) {
      throw new Error(`answer ${item.answerId} of question ${item.questionId} appears twice (item ${index})`);
    }
    seen.add(key);
    if (!Number.isFinite(item.humanScore)) {
      throw new Error(`item ${index} (question ${item.questionId}, answer ${item.answerId}) has no finite human score`);
    }
    const round = item.eliminatedInRound;
    if (round !== undefined && round !== null && !(Number.isInteger(round) && round >= 1)) {
      throw new Error(`item ${index} has eliminatedInRound ${round}; expected an integer >= 1, or null for the champion`);
    }
    const times = item.timesGraded;
    if (times !== undefined && !(Number.isInteger(times) && times >= 0)) {
      throw new Error(`item ${index} has timesGraded ${times}; expected an integer >= 0`);
    }
  });
}

export function isScored(item: GradedItem): item is ScoredItem {
  return item.judgeScore !== null && Number.isFinite(item.judgeScore);
}

/** Groups by question in order of first appearance, so reports list questions as the dataset does. */
export function groupByQuestion(items: readonly ScoredItem[]): QuestionGroup[] {
  const groups = new Map<string, ScoredItem[]>();
  for (const item of items) {
    const group = groups.get(item.questionId);
    if (group) group.push(item);
    else groups.set(item.questionId, [item]);
  }
  return [...groups].map(([questionId, grouped]) => ({ questionId, items: grouped }));
}

export function judgeScores(items: readonly ScoredItem[]): Float64Array {
  return Float64Array.from(items, (item) => item.judgeScore);
}

export function humanScores(items: readonly ScoredItem[]): Float64Array {
  return Float64Array.from(items, (item) => item.humanScore);
}
