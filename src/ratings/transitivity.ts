// Transitivity check of seeds/002 section 6.1.2. From head-to-head results we form the pairwise
// majority relation (B beats A if B took more than half the points of their games, a draw being
// half a point) and look at every triple of players: with all three pairs decided, the triple is
// either transitive (a linear order) or a cycle, A beats B, B beats C, C beats A. The paper asks
// for ratings with A < B exactly when B is expected to beat A (eq. 8); a rating system can only
// honour that for every pair if the majority relation has no cycles, so we also report, per
// system, how many decided pairs its ranking orders the same way as the majority.
//
// Triples containing an unplayed or exactly tied pair are neither transitive nor intransitive;
// they are counted as undecided and left out of the share.

import { headToHead, playersOf, type Game } from "./games.js";

/** A decided pair: `winner` took more than half the points against `loser`. */
export interface MajorityResult {
  readonly winner: string;
  readonly loser: string;
  readonly games: number;
  readonly winnerScore: number;
}

export interface TransitivityReport {
  readonly players: number;
  readonly pairs: { readonly decided: number; readonly tied: number; readonly unplayed: number };
  readonly triples: { readonly total: number; readonly decided: number; readonly transitive: number; readonly intransitive: number };
  /** transitive / decided triples; null when no triple is decided. */
  readonly transitiveShare: number | null;
  /** Up to MAX_LISTED_CYCLES cycles [A, B, C]: A beats B, B beats C, C beats A. */
  readonly cycles: readonly (readonly [string, string, string])[];
  /** Every pair decided and no cycle: the majority relation is a linear order (paper's Figure 2). */
  readonly linearOrder: boolean;
}

export interface MajorityAgreement {
  readonly decidedPairs: number;
  /** Decided pairs where the majority winner has the strictly higher rating. */
  readonly agreeing: number;
  /** agreeing / decidedPairs; null when no pair is decided. */
  readonly share: number | null;
  /** True when the ranking orders every decided pair as the majority does. */
  readonly agrees: boolean;
  readonly disagreements: readonly MajorityResult[];
}

export const MAX_LISTED_CYCLES = 100;

export function pairwiseMajorities(games: readonly Game[]): MajorityResult[] {
  const results: MajorityResult[] = [];
  for (const pair of headToHead(games)) {
    const scoreB = pair.games - pair.scoreA;
    if (pair.scoreA > scoreB) results.push({ winner: pair.a, loser: pair.b, games: pair.games, winnerScore: pair.scoreA });
    else if (scoreB > pair.scoreA) results.push({ winner: pair.b, loser: pair.a, games: pair.games, winnerScore: scoreB });
  }
  return results;
}

export function transitivityReport(games: readonly Game[], players: readonly string[] = []): TransitivityReport {
  const everyone = playersOf(games, players);
  const n = everyone.length;
  const index = new Map(everyone.map((player, i) => [player, i]));
  // relation[i][j]: 1 if i beats j, -1 if j beats i, 0 if tied, undefined if they never met.
  const relation: (number | undefined)[][] = everyone.map(() => new Array<number | undefined>(n));
  const played = headToHead(games);
  for (const pair of played) {
    const i = index.get(pair.a)!;
    const j = index.get(pair.b)!;
    const sign = Math.sign(pair.scoreA - (pair.games - pair.scoreA));
    relation[i][j] = sign;
    relation[j][i] = -sign;
  }
  const totalPairs = (n * (n - 1)) / 2;
  const tied = played.filter((pair) => 2 * pair.scoreA === pair.games).length;
  const decidedPairs = played.length - tied;

  let decidedTriples = 0;
  let intransitive = 0;
  const cycles: [string, string, string][] = [];
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const ij = relation[i][j];
      if (!ij) continue; // unplayed or tied
      for (let k = j + 1; k < n; k++) {
        const jk = relation[j][k];
        const ki = relation[k][i];
        if (!jk || !ki) continue;
        decidedTriples++;
        // i -> j -> k -> i, or the reverse cycle, are the only intransitive patterns.
        if (ij === jk && jk === ki) {
          intransitive++;
          if (cycles.length < MAX_LISTED_CYCLES) {
            cycles.push(ij > 0 ? [everyone[i], everyone[j], everyone[k]] : [everyone[i], everyone[k], everyone[j]]);
          }
        }
      }
    }
  }
  return {
    players: n,
    pairs: { decided: decidedPairs, tied, unplayed: totalPairs - played.length },
    triples: {
      total: (n * (n - 1) * (n - 2)) / 6,
      decided: decidedTriples,
      transitive: decidedTriples - intransitive,
      intransitive,
    },
    transitiveShare: decidedTriples === 0 ? null : (decidedTriples - intransitive) / decidedTriples,
    cycles,
    // A complete tournament without 3-cycles has no cycles at all, hence is a linear order.
    linearOrder: decidedPairs === totalPairs && intransitive === 0,
  };
}

export function majorityAgreement(majorities: readonly MajorityResult[], ratings: ReadonlyMap<string, number>): MajorityAgreement {
  const disagreements = majorities.filter((m) => !((ratings.get(m.winner) ?? NaN) > (ratings.get(m.loser) ?? NaN)));
  const agreeing = majorities.length - disagreements.length;
  return {
    decidedPairs: majorities.length,
    agreeing,
    share: majorities.length === 0 ? null : agreeing / majorities.length,
    agrees: disagreements.length === 0,
    disagreements,
  };
}
