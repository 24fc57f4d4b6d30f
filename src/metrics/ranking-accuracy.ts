// Pairwise ranking accuracy of Kocmi et al. (2021), "To Ship or Not to Ship":
//
//   accuracy = |{pairs with sign(Δ judge) = sign(Δ human)}| / |pairs|,  Δ = score(A) - score(B)
//
// taken over all pairs of systems, here examinees at exam level (the seed paper reports it only
// there, because per-answer human grades tie too often; thesis section 4.2.2).
//
// Ties, which the formula leaves implicit:
//   - Human ties (Δ human = 0) carry no ranking to agree with. By default ("exclude") such pairs
//     leave both numerator and denominator. With "include" they stay in the denominator and, as
//     the literal formula says, count as agreeing only when the judge ties too (sign 0 = sign 0).
//   - Judge ties where humans differ always count as disagreeing: sign 0 is not the sign of a
//     preference, so a judge that ties everything scores 0, not 0.5. The count is reported so a
//     reader can see how much of the error is ties.
// Ties are exact equality; callers that sum floating-point scores should round the sums first
// (see examineeTotals in levels.ts) so that equal totals really are equal.

export type HumanTiePolicy = "exclude" | "include";

export interface RankingAccuracyOptions {
  /** What to do with pairs the humans scored equally. Default "exclude". */
  humanTies?: HumanTiePolicy;
}

export interface RankingAccuracy {
  /** agreeingPairs / countedPairs, or null when no pair is counted. */
  accuracy: number | null;
  agreeingPairs: number;
  /** Pairs in the denominator. */
  countedPairs: number;
  /** All n(n-1)/2 pairs, before any exclusion. */
  totalPairs: number;
  /** Pairs with equal human scores (excluded from countedPairs under "exclude"). */
  humanTiedPairs: number;
  /** Counted pairs the judge tied although the humans did not; each counts as disagreeing. */
  judgeOnlyTiedPairs: number;
  humanTies: HumanTiePolicy;
}

export function pairwiseRankingAccuracy(
  judge: ArrayLike<number>,
  human: ArrayLike<number>,
  options: RankingAccuracyOptions = {},
): RankingAccuracy {
  const humanTies = options.humanTies ?? "exclude";
  if (judge.length !== human.length) {
    throw new RangeError(`ranking accuracy of sequences of different lengths (${judge.length} and ${human.length})`);
  }
  for (let i = 0; i < judge.length; i++) {
    if (!Number.isFinite(judge[i]) || !Number.isFinite(human[i])) {
      throw new RangeError(`ranking accuracy input is not a finite number at index ${i}: (${judge[i]}, ${human[i]})`);
    }
  }
  const n = judge.length;
  let agreeingPairs = 0;
  let humanTiedPairs = 0;
  let judgeOnlyTiedPairs = 0;
  for (let a = 0; a < n; a++) {
    for (let b = a + 1; b < n; b++) {
      const humanSign = Math.sign(human[a] - human[b]);
      const judgeSign = Math.sign(judge[a] - judge[b]);
      if (humanSign === 0) {
        humanTiedPairs++;
        if (humanTies === "include" && judgeSign === 0) agreeingPairs++;
        continue;
      }
      if (judgeSign === 0) judgeOnlyTiedPairs++;
      else if (judgeSign === humanSign) agreeingPairs++;
    }
  }
  const totalPairs = (n * (n - 1)) / 2;
  const countedPairs = humanTies === "exclude" ? totalPairs - humanTiedPairs : totalPairs;
  return {
    accuracy: countedPairs === 0 ? null : agreeingPairs / countedPairs,
    agreeingPairs,
    countedPairs,
    totalPairs,
    humanTiedPairs,
    judgeOnlyTiedPairs,
    humanTies,
  };
}
