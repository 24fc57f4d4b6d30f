import { z } from "zod";
import { seed } from "./seed.ts";
import { identifier, idKeyedRecord } from "./identifier.ts";
import { ratingLimits } from "./limits.ts";
import { RATING_SYSTEMS } from "./names.ts";

const game = z.strictObject({
  // players are ids: NFC, no control or format characters, so lookalike names are the same player
  a: identifier(200),
  b: identifier(200),
  outcome: z.union([z.literal(1), z.literal(0.5), z.literal(0)], { error: "must be 1 (a wins), 0.5 (draw) or 0 (b wins)" }),
  round: z.number().int().min(0).optional(),
});

const bootstrap = z.union([
  z.literal(false),
  z.strictObject({
    samples: z.number().int().min(1).max(ratingLimits.maxSamples).optional(),
    confidence: z.number().gt(0).lt(1).optional(),
    seed: seed.optional(),
  }),
]);

/** The distinct players these games name. */
export function playerCount(games: readonly { a: string; b: string }[]): number {
  const players = new Set<string>();
  for (const g of games) players.add(g.a).add(g.b);
  return players.size;
}

/**
 * Either games as played, or per-instance outcomes per model from which a benchmark-built tournament
 * is drawn (seeds/002 section 4: every pair of models meets in each of `rounds` rounds, each match
 * is `matchSize` instances both answered, the model with more instance wins takes it).
 */
export const ratingsBody = z
  .strictObject({
    games: z.array(game).min(1, "needs at least 1 game").max(ratingLimits.maxGames).optional(),
    outcomes: idKeyedRecord(200, z.array(z.union([z.number(), z.boolean(), z.null()])).max(ratingLimits.maxInstances)).optional(),
    matchSize: z.number().int().min(1).optional(),
    rounds: z.number().int().min(1).optional(),
    seed: seed.optional(),
    systems: z.array(z.enum(RATING_SYSTEMS)).min(1).optional(),
    bootstrap: bootstrap.optional(),
  })
  .superRefine((body, ctx) => {
    if ((body.games === undefined) === (body.outcomes === undefined)) {
      ctx.addIssue({ code: "custom", path: [], message: "give either `games` or `outcomes`, not both and not neither" });
    }
    if (body.games) {
      for (const [i, g] of body.games.entries()) {
        if (g.a === g.b) ctx.addIssue({ code: "custom", path: ["games", i, "b"], message: "a player cannot play itself" });
      }
      const players = playerCount(body.games);
      if (players > ratingLimits.maxPlayers)
        ctx.addIssue({ code: "custom", path: ["games"], message: `name ${players} players; at most ${ratingLimits.maxPlayers}` });
    }
    if (body.outcomes) {
      const models = Object.keys(body.outcomes).length;
      if (models < 2) ctx.addIssue({ code: "custom", path: ["outcomes"], message: "needs at least 2 models" });
      if (models > ratingLimits.maxPlayers)
        ctx.addIssue({ code: "custom", path: ["outcomes"], message: `takes at most ${ratingLimits.maxPlayers} models` });
      if (body.matchSize === undefined)
        ctx.addIssue({ code: "custom", path: ["matchSize"], message: "required with `outcomes` (instances per match, k)" });
      if (body.rounds === undefined)
        ctx.addIssue({ code: "custom", path: ["rounds"], message: "required with `outcomes` (matches per pair of models, N)" });
      const pairs = (models * (models - 1)) / 2;
      const games = pairs * (body.rounds ?? 0);
      const longest = Math.max(0, ...Object.values(body.outcomes).map((xs) => xs.length));
      const lookups = pairs * longest + games * Math.min(body.matchSize ?? 0, longest);
      if (games <= ratingLimits.maxGames && lookups > ratingLimits.maxOutcomeLookups) {
        ctx.addIssue({
          code: "custom",
          path: ["matchSize"],
          message: `${pairs} pairs over up to ${longest} instances and ${games} matches of up to ${Math.min(body.matchSize ?? 0, longest)} instances look at ${lookups} instances; at most ${ratingLimits.maxOutcomeLookups} (fewer rounds, a smaller matchSize or fewer instances)`,
        });
      }
      if (games > ratingLimits.maxGames) {
        ctx.addIssue({
          code: "custom",
          path: ["rounds"],
          message: `${models} models and ${body.rounds} rounds make ${games} games; at most ${ratingLimits.maxGames}`,
        });
      }
    }
  });
export type RatingsRequest = z.input<typeof ratingsBody>;
