import { z } from "zod";
import { RATING_SYSTEMS } from "./names.ts";
import { agreement, judgeDiagnostics } from "./judge-figures.ts";
import { iso } from "./response-parts.ts";

export const batchAccepted = z.looseObject({ id: z.string(), status: z.literal("running"), total: z.number().int() });

export const batch = z.looseObject({
  id: z.string(),
  status: z.string(),
  /** Questions ended of all; `failed` and `cancelled` of them ended so. */
  progress: z.looseObject({
    done: z.number().int(),
    total: z.number().int(),
    failed: z.number().int().optional(),
    cancelled: z.number().int().optional(),
  }),
  evaluations: z.array(z.string()),
  /** Once ended, where answers carry an `examinee`: each examinee's total score over the questions it answered, best first. */
  examLevel: z.array(z.looseObject({ examinee: z.string(), total: z.number(), questionsAnswered: z.number().int() })).optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  createdAt: iso.optional(),
  agreement: agreement.optional(),
  /** The judge's biases over the batch's ended questions, pooled (as on an evaluation). */
  judgeDiagnostics: judgeDiagnostics.optional(),
});

const interval = z.looseObject({ low: z.number(), high: z.number() });

/** One player's rating in one system: `ci` and `rankCi` are the bootstrap's intervals (null without it). */
const playerRating = z.looseObject({
  player: z.string(),
  /** Elo: rating; Bradley-Terry: on Elo's scale; Glicko-2: rating; TrueSkill: mu. */
  rating: z.number(),
  /** 1 = best; ties share a rank. */
  rank: z.number().int(),
  ci: interval.nullable(),
  rankCi: interval.nullable(),
  /** Glicko-2's rating deviation and volatility. */
  rd: z.number().optional(),
  volatility: z.number().optional(),
  /** TrueSkill's sigma. */
  sigma: z.number().optional(),
  /** Bradley-Terry's strength (geometric mean 1). */
  strength: z.number().optional(),
});

const majority = z.looseObject({ winner: z.string(), loser: z.string(), games: z.number().int(), winnerScore: z.number() });

/**
 * Elo, Bradley-Terry, Glicko-2 and TrueSkill over the games (docs/api.md, "Ratings"), with the
 * head-to-head majorities' transitivity and whether each system's ranking agrees with them.
 */
export const ratings = z.looseObject({
  /** On a batch's ratings: the batch. */
  batchId: z.string().optional(),
  games: z.number().int(),
  players: z.array(z.string()),
  systems: z.partialRecord(
    z.enum(RATING_SYSTEMS),
    z.looseObject({
      system: z.enum(RATING_SYSTEMS),
      /** Best first. */
      players: z.array(playerRating),
      /** Bradley-Terry: "mle", or "map" where no maximum likelihood estimate exists (an unbeaten or winless group). */
      estimate: z.enum(["mle", "map"]).optional(),
      /** Bradley-Terry: false when the point fit ran out of its iterations or its share of the request's work before it converged. */
      converged: z.boolean().optional(),
    }),
  ),
  transitivity: z.looseObject({
    players: z.number().int(),
    pairs: z.looseObject({ decided: z.number().int(), tied: z.number().int(), unplayed: z.number().int() }),
    triples: z.looseObject({
      total: z.number().int(),
      decided: z.number().int(),
      transitive: z.number().int(),
      intransitive: z.number().int(),
    }),
    transitiveShare: z.number().nullable(),
    /** Up to 100 cycles [A, B, C]: A beats B, B beats C, C beats A. */
    cycles: z.array(z.tuple([z.string(), z.string(), z.string()])),
    linearOrder: z.boolean(),
    agreement: z.partialRecord(
      z.enum(RATING_SYSTEMS),
      z.looseObject({
        decidedPairs: z.number().int(),
        agreeing: z.number().int(),
        share: z.number().nullable(),
        agrees: z.boolean(),
        disagreements: z.array(majority),
      }),
    ),
  }),
  bootstrap: z.looseObject({ samples: z.number().int(), confidence: z.number(), seed: z.number().int() }).nullable(),
});

export type BatchAccepted = z.output<typeof batchAccepted>;

export type Batch = z.output<typeof batch>;

export type Ratings = z.output<typeof ratings>;
