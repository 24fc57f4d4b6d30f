import { Hono } from "hono";
import { benchmarkTournamentGames, type Game } from "../ratings/games";
import { samplesThatFit } from "../ratings/request-cost";
import { rateTournament } from "../ratings/index";
import type { App } from "./context";
import { z } from "zod";
import type { FieldError } from "../platform/problems";
import * as r from "../contract";
import { ratingLimits, ratingsBody } from "../contract";
import { ProblemError } from "../platform/problems";
import { decimalInteger } from "./query-number";
import { type QueryDoc, route } from "./route";

/**
 * The bootstrap a request gets: what it asked, or, when it named no number of samples, the default
 * (DEFAULT_SAMPLES) cut to what fits (none when nothing does). An explicit number beyond what fits is
 * an error saying how many do.
 */
export function fittedBootstrap(
  games: readonly Game[],
  systems: readonly string[] | undefined,
  asked: false | { samples?: number; seed?: number; confidence?: number },
): { ok: true; value: false | { samples: number; seed?: number; confidence?: number } } | { ok: false; reason: string } {
  if (asked === false) return { ok: true, value: false };
  const fit = samplesThatFit(games, systems);
  if (asked.samples === undefined) {
    const samples = Math.min(DEFAULT_SAMPLES, fit.samples);
    return { ok: true, value: samples < 1 ? false : { ...asked, samples } };
  }
  if (asked.samples <= fit.samples) return { ok: true, value: { ...asked, samples: asked.samples } };
  return { ok: false, reason: `${fit.why}: use at most ${fit.samples} samples (or 0 for none)` };
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
    const boot = fittedBootstrap(games, b.systems, b.bootstrap ?? {});
    if (!boot.ok)
      throw new ProblemError(400, `bootstrap.samples: ${boot.reason}`, { errors: [{ field: "bootstrap.samples", reason: boot.reason }] });
    return c.json(rateTournament(games, { systems: b.systems, bootstrap: boot.value, bradleyTerryWork: ratingLimits.bradleyTerryWork }));
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
): { ok: true; value: false | { samples?: number; seed: number } } | { ok: false; errors: FieldError[] } {
  const errors: FieldError[] = [];
  // left out: the default, cut to what the games allow (fittedBootstrap)
  const n = samples === undefined ? undefined : decimalInteger(samples);
  const s = seed === undefined ? 0 : decimalInteger(seed);
  if (n === null || (n !== undefined && n > ratingLimits.maxSamples))
    errors.push({ field: "samples", reason: `must be an integer from 0 to ${ratingLimits.maxSamples}, in decimal digits` });
  if (s === null || s > 2 ** 31 - 1) errors.push({ field: "seed", reason: "must be a non-negative integer, in decimal digits" });
  if (n === null || s === null || errors.length > 0) return { ok: false, errors };
  return { ok: true, value: n === 0 ? false : n === undefined ? { seed: s } : { samples: n, seed: s } };
}
