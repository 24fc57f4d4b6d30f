import { Hono } from "hono";
import { benchmarkTournamentGames, type Game } from "../ratings/games";
import { rateTournament } from "../ratings/index";
import type { App } from "./context";
import { z } from "zod";
import type { FieldError } from "../platform/problems";
import * as r from "../contract";
import { ratingLimits, ratingsBody } from "../contract";
import { ProblemError } from "../platform/problems";
import { decimalInteger } from "./query-number";
import { type QueryDoc, route } from "./route";

/** Why the bootstrap is too costly for these many games, or null. */
export function bootstrapTooCostly(games: number, samples: number): string | null {
  if (games * samples <= ratingLimits.maxGameSamples) return null;
  const fits = Math.max(0, Math.floor(ratingLimits.maxGameSamples / Math.max(1, games)));
  return `${games} games x ${samples} bootstrap samples is more than ${ratingLimits.maxGameSamples} game ratings; use at most ${fits} samples (or 0 for none)`;
}
const DEFAULT_SAMPLES = 1_000;

export const ratings = new Hono<App>();

route(
  ratings,
  {
    method: "post",
    path: "/",
    summary: "Rate players from games or outcomes",
    tag: "ratings",
    auth: "key",
    // it only computes: a read-only key may ask
    scope: "read",
    body: ratingsBody,
    ok: { 200: { description: "the ratings", schema: r.ratings } },
    refusals: [400],
  },
  async (c, input) => {
    const b = await input.body();
    const games: Game[] =
      b.games ?? benchmarkTournamentGames(b.outcomes!, { matchSize: b.matchSize!, rounds: b.rounds!, seed: b.seed ?? 0 });
    const boot = b.bootstrap === false ? false : { samples: DEFAULT_SAMPLES, ...b.bootstrap };
    const costly = boot && bootstrapTooCostly(games.length, boot.samples);
    if (costly) throw new ProblemError(400, `bootstrap.samples: ${costly}`, { errors: [{ field: "bootstrap.samples", reason: costly }] });
    return c.json(rateTournament(games, { systems: b.systems, bootstrap: boot, bradleyTerryWork: ratingLimits.bradleyTerryWork }));
  },
);

/** The bootstrap's query as the document shows it. */
export const bootstrapQueryDoc: QueryDoc = {
  samples: { schema: z.number().int().min(0), description: "bootstrap samples (0: none)" },
  seed: { schema: z.number().int().min(0), description: "bootstrap seed" },
};

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
