import { Hono } from "hono";
import { z } from "zod";
import { benchmarkTournamentGames, type Game } from "../ratings/games";
import { RATING_SYSTEMS, rateTournament, type RatingSystem } from "../ratings/index";
import type { App } from "./context";
import { requireKey } from "./auth";
import { readBody } from "./body";
import type { FieldError } from "../problems";
import { identifier, idKeyedRecord } from "../evaluations/identifier";
import { ProblemError } from "../problems";
import { decimalInteger } from "./query-number";

export const ratingLimits = {
  maxGames: 100_000,
  /**
   * Players in one rating, given as `outcomes` or named in `games`: the transitivity check keeps a
   * players x players table and walks its triples (8,000 players took 17.6 s and 546 MB).
   */
  maxPlayers: 500,
  maxInstances: 100_000,
  maxSamples: 2_000,
  /** Games x bootstrap samples: every sample re-rates every game with each system, within a Worker's CPU time. */
  maxGameSamples: 10_000_000,
} as const;

/** The distinct players these games name. */
export function playerCount(games: readonly { a: string; b: string }[]): number {
  const players = new Set<string>();
  for (const g of games) players.add(g.a).add(g.b);
  return players.size;
}

/** Why the bootstrap is too costly for these many games, or null. */
export function bootstrapTooCostly(games: number, samples: number): string | null {
  if (games * samples <= ratingLimits.maxGameSamples) return null;
  const fits = Math.max(0, Math.floor(ratingLimits.maxGameSamples / Math.max(1, games)));
  return `${games} games x ${samples} bootstrap samples is more than ${ratingLimits.maxGameSamples} game ratings; use at most ${fits} samples (or 0 for none)`;
}
const DEFAULT_SAMPLES = 1_000;

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
    seed: z
      .number()
      .int()
      .min(0)
      .max(2 ** 31 - 1)
      .optional(),
  }),
]);

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
    seed: z
      .number()
      .int()
      .min(0)
      .max(2 ** 31 - 1)
      .optional(),
    systems: z
      .array(z.enum(RATING_SYSTEMS as [RatingSystem, ...RatingSystem[]]))
      .min(1)
      .optional(),
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
      const games = ((models * (models - 1)) / 2) * (body.rounds ?? 0);
      if (games > ratingLimits.maxGames) {
        ctx.addIssue({
          code: "custom",
          path: ["rounds"],
          message: `${models} models and ${body.rounds} rounds make ${games} games; at most ${ratingLimits.maxGames}`,
        });
      }
    }
  });

export const ratings = new Hono<App>();
ratings.use(requireKey);

ratings.post("/", async (c) => {
  const b = await readBody(c, ratingsBody);
  const games: Game[] = b.games ?? benchmarkTournamentGames(b.outcomes!, { matchSize: b.matchSize!, rounds: b.rounds!, seed: b.seed ?? 0 });
  const boot = b.bootstrap === false ? false : { samples: DEFAULT_SAMPLES, ...b.bootstrap };
  const costly = boot && bootstrapTooCostly(games.length, boot.samples);
  if (costly) throw new ProblemError(400, `bootstrap.samples: ${costly}`, { errors: [{ field: "bootstrap.samples", reason: costly }] });
  return c.json(rateTournament(games, { systems: b.systems, bootstrap: boot }));
});

/** `?samples=N&seed=S` for ratings read from a batch; samples=0 turns the bootstrap off. */
export function bootstrapQuery(
  samples: string | undefined,
  seed: string | undefined,
): { ok: true; value: false | { samples: number; seed: number } } | { ok: false; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const n = samples === undefined ? DEFAULT_SAMPLES : decimalInteger(samples);
  const s = seed === undefined ? 0 : decimalInteger(seed);
  if (n === null || n > ratingLimits.maxSamples)
    errors.push({ field: "samples", reason: `must be an integer from 0 to ${ratingLimits.maxSamples}, in decimal digits` });
  if (s === null || s > 2 ** 31 - 1) errors.push({ field: "seed", reason: "must be a non-negative integer, in decimal digits" });
  if (n === null || s === null || errors.length > 0) return { ok: false, errors };
  return { ok: true, value: n === 0 ? false : { samples: n, seed: s } };
}
