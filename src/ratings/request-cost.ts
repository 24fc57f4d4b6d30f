// What a rating request may ask of the CPU: how many bootstrap samples its games allow. Pure; the
// routes (src/api/ratings.ts, src/api/batches.ts) and the ratings bench use it.
import { ratingLimits } from "../contract/limits.js";
import { bradleyTerryStepCost } from "./bradley-terry.js";
import { type Game, headToHead, playersOf } from "./games.js";

/** Bradley-Terry's iterations a bootstrap sample must be able to afford, starting from the point fit. */
const SAMPLE_STEPS = 3;

/**
 * The most bootstrap samples these games allow: games x samples within `maxGameSamples`, and, with
 * Bradley-Terry, SAMPLE_STEPS of its iterations per sample within the half of `bradleyTerryWork` the
 * samples share (at 300 players a Newton step is about 300,000 units, so fewer samples than at 30).
 */
export function samplesThatFit(games: readonly Game[], systems: readonly string[] | undefined): { samples: number; why: string } {
  const byGames = Math.floor(ratingLimits.maxGameSamples / Math.max(1, games.length));
  if (systems !== undefined && !systems.includes("bradleyTerry"))
    return { samples: byGames, why: `${games.length} games x samples may be at most ${ratingLimits.maxGameSamples} game ratings` };
  // counted as fitBradleyTerry counts them
  const players = playersOf(games).length;
  const step = bradleyTerryStepCost(players, headToHead(games).length);
  const byFits = Math.floor(ratingLimits.bradleyTerryWork / 2 / (SAMPLE_STEPS * step));
  return byFits < byGames
    ? {
        samples: byFits,
        why: `with ${players} players each sample's Bradley-Terry fit needs ${SAMPLE_STEPS} steps of ${Math.round(step)} units of ${ratingLimits.bradleyTerryWork / 2} for the samples`,
      }
    : { samples: byGames, why: `${games.length} games x samples may be at most ${ratingLimits.maxGameSamples} game ratings` };
}
