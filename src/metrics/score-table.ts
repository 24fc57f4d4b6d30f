// Columnar scores of a whole data set with their rank codes computed once, so that a bootstrap
// resample, given as a list of row positions (repeats allowed), is measured without sorting.
// Every coefficient here equals the one computed from the selected scores directly.

import { kendallTauBOfCodes, pearson, spearmanOfCodes } from "./correlation";
import type { ScoredItem } from "./items";
import type { Correlations } from "./levels";
import { rankCodes, selectCodes, type RankCodes } from "./ranks";

export interface ScoreTable {
  judge: Float64Array;
  human: Float64Array;
  judgeRanks: RankCodes;
  humanRanks: RankCodes;
}

export function scoreTable(items: readonly ScoredItem[]): ScoreTable {
  const judge = Float64Array.from(items, (item) => item.judgeScore);
  const human = Float64Array.from(items, (item) => item.humanScore);
  return { judge, human, judgeRanks: rankCodes(judge), humanRanks: rankCodes(human) };
}

function select(values: Float64Array, rows: ArrayLike<number>): Float64Array {
  const selected = new Float64Array(rows.length);
  for (let i = 0; i < rows.length; i++) selected[i] = values[rows[i]];
  return selected;
}

export function pearsonOfRows(table: ScoreTable, rows: ArrayLike<number>): number | null {
  return pearson(select(table.judge, rows), select(table.human, rows));
}

export function correlationsOfRows(table: ScoreTable, rows: ArrayLike<number>): Correlations {
  const judgeRanks = selectCodes(table.judgeRanks, rows);
  const humanRanks = selectCodes(table.humanRanks, rows);
  return {
    pearson: pearsonOfRows(table, rows),
    spearman: spearmanOfCodes(judgeRanks, humanRanks),
    kendallTauB: kendallTauBOfCodes(judgeRanks, humanRanks),
  };
}

/** The rows of several units, one after the other (a resample of questions as one sample). */
export function concatRows(parts: readonly Int32Array[]): Int32Array {
  let length = 0;
  for (const part of parts) length += part.length;
  const rows = new Int32Array(length);
  let offset = 0;
  for (const part of parts) {
    rows.set(part, offset);
    offset += part.length;
  }
  return rows;
}
