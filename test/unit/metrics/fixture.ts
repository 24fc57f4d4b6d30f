import type { GradedItem } from "../../../src/metrics/items";

// The graded-items fixture whose reference values reference_values.py prints ("fixture ...").
// Three questions, examinees A-D, D did not answer q3; knockout rounds as a 4- and 3-answer
// tournament would give them (in q3 one answer had a bye and reached round 2).
type Row = [examinee: string, judge: number, human: number, round: number | null];
const rows: Record<string, Row[]> = {
  q1: [
    ["A", 8, 4, null],
    ["B", 6, 3, 2],
    ["C", 3, 1, 1],
    ["D", 5, 3, 1],
  ],
  q2: [
    ["A", 7, 5, 2],
    ["B", 7, 4, null],
    ["C", 2, 2, 1],
    ["D", 4, 3, 1],
  ],
  q3: [
    ["A", 9, 5, null],
    ["B", 5, 2, 1],
    ["C", 6, 3, 2],
  ],
};

export const fixtureItems: GradedItem[] = Object.entries(rows).flatMap(([questionId, answers]) =>
  answers.map(([examinee, judgeScore, humanScore, eliminatedInRound]) => ({
    questionId,
    answerId: `${questionId}-${examinee}`,
    examinee,
    judgeScore,
    humanScore,
    eliminatedInRound,
  })),
);
