import { type Agreement, agreement, level, pointAgreement, type Scale } from "../metrics/agreement";

/** A graded answer of a batch, with its own question's scale. */
export interface ScaledPair {
  judge: number;
  teacher: number;
  scale: Scale;
}

/** A batch's agreement: in points when its graded questions share a scale, in shares of maxScore when not. */
export type PooledAgreement = (Agreement & { scale: "points" }) | (Agreement & { qwk: null; scale: "share" });

/**
 * The agreement over every graded answer of a batch. Questions on one scale are pooled as they are; when
 * the graded questions' scales differ, both grades are taken as shares of their question's maxScore
 * (`scale: "share"`, `mae` then a share too), each pair counts as exact on its own question's steps, and
 * `qwk` is null: shares are a continuum, with no common steps to count agreement on. Pure.
 */
export function pooledAgreement(pairs: readonly ScaledPair[]): PooledAgreement | null {
  const scales = new Set(pairs.map((p) => `${p.scale.maxScore}/${p.scale.step}`));
  if (scales.size <= 1) {
    const pooled = pairs.length ? agreement(pairs, pairs[0].scale) : null;
    return pooled && { ...pooled, scale: "points" };
  }
  const pooled = pointAgreement(pairs.map((p) => ({ judge: p.judge / p.scale.maxScore, teacher: p.teacher / p.scale.maxScore })));
  if (!pooled) return null;
  const exact = pairs.filter((p) => level(p.judge, p.scale) === level(p.teacher, p.scale)).length;
  return { ...pooled, exact: exact / pairs.length, qwk: null, scale: "share" };
}
