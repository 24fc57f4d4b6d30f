import { uniformInt } from "pure-rand/distribution/uniformInt";
import { checkOptions, openCalls, settledCall } from "./knockout";
import { newMatch } from "./match";
import { planExtras } from "./extra";
import { shuffle, streamFor } from "../random/seeded";
import type { Bye, ByeRule, CallDetail, KnockoutOptions, KnockoutState, Match, OpenCall } from "./types";

/**
 * The knockout on a fixed bracket: every round's random pairing is drawn at the start, over match
 * *slots* ("the winner of match 3") rather than over the answers that won. A match opens the moment its
 * two feeders are decided, so a tournament waits only for its own chain of matches, never for the
 * slowest match of a round (the paper's re-pairing waits for every match of a round).
 *
 * Same method, same odds with `byes: "paper"`: round r pairs the round's slots by a uniform random
 * permutation drawn independently of the results, and which answer fills which slot is fixed by the
 * results alone, so given the results the answers of round r are paired uniformly at random, exactly as
 * the paper's reshuffle pairs them, byes included (the last round's bye gets this round's with
 * probability 1/k). Round 1 is the paper's round 1 for the same seed; each round has the paper's
 * floor(k/2) matches and k mod 2 byes. With `byes: "no-repeat"` (what an absent rule means, so that
 * evaluations stored before the option replay as they were played) the bye never goes to the slot that
 * had the bye the round before: 0 of 120 five-answer brackets gave one answer two byes in a row, where
 * the paper's re-pairing does in 1 of 3. New evaluations get DEFAULT_BYE_RULE, the paper's.
 */
export type Slot = { answer: string } | { winnerOf: number };

export interface PlannedMatch {
  index: number;
  round: number;
  feeders: [Slot, Slot];
}

export interface BracketState extends KnockoutState {
  plan: PlannedMatch[];
  planByes: { round: number; slot: Slot }[];
  /** The slot that holds the champion once the last match is decided. */
  final: Slot;
}

/** Salt for the bye's own stream, so it never shares numbers with a round's shuffle. */
const BYE_STREAM = 1 << 20;

export function planBracket(
  ids: readonly string[],
  seed: number,
  byes: ByeRule = "no-repeat",
): Pick<BracketState, "plan" | "planByes" | "final"> {
  const plan: PlannedMatch[] = [];
  const planByes: { round: number; slot: Slot }[] = [];
  let slots: Slot[] = ids.map((answer) => ({ answer }));
  let lastBye: Slot | null = null;
  for (let round = 1; slots.length > 1; round++) {
    const order = shuffle(slots, seed, round);
    const last = order.length - 1;
    if (byes === "no-repeat" && order.length % 2 === 1 && order[last] === lastBye) {
      // swap the previous round's bye out of the bye position, with a seeded uniform pick of the others
      const j = uniformInt(streamFor(seed, BYE_STREAM + round), 0, last - 1);
      [order[j], order[last]] = [order[last], order[j]];
    }
    const next: Slot[] = [];
    for (let k = 0; k + 1 < order.length; k += 2) {
      const index = plan.length;
      plan.push({ index, round, feeders: [order[k], order[k + 1]] });
      next.push({ winnerOf: index });
    }
    lastBye = order.length % 2 === 1 ? order[last] : null;
    if (lastBye) {
      planByes.push({ round, slot: lastBye });
      next.push(lastBye);
    }
    slots = next;
  }
  return { plan, planByes, final: slots[0] };
}

export function startBracket(ids: readonly string[], options: KnockoutOptions): BracketState {
  checkOptions(ids, options);
  const state: BracketState = {
    ids: [...ids],
    options,
    matches: [],
    byes: [],
    round: 0,
    champion: null,
    ...planBracket(ids, options.seed, options.byes),
  };
  return openReady(state);
}

/**
 * Every call of every open match: all matches whose feeders are decided, from any round. The same walk
 * as the knockout's: a bracket only opens its matches earlier.
 */
export const bracketOpenCalls: (state: BracketState) => OpenCall[] = openCalls;

export function recordBracketCall(
  state: BracketState,
  match: number,
  call: number,
  scores: [number, number],
  detail: CallDetail = {},
): BracketState {
  const at = state.matches.findIndex((m) => m.index === match);
  const m = state.matches[at];
  if (!m) throw new Error(state.plan[match] ? `match ${match} is not open yet` : `no match ${match}`);
  const matches = state.matches.slice();
  matches[at] = settledCall(state.options, matches, m, call, scores, detail);
  const next = { ...state, matches };
  return matches[at].winner === null ? next : planExtras(openReady(next));
}

/** The answer a slot holds, or null while the match that decides it is still open (or not yet open). */
function resolve(byIndex: ReadonlyMap<number, Match>, slot: Slot): string | null {
  if ("answer" in slot) return slot.answer;
  return byIndex.get(slot.winnerOf)?.winner ?? null;
}

/** Opens every planned match whose two feeders are now known; names the byes and the champion. */
function openReady(state: BracketState): BracketState {
  const byIndex = new Map(state.matches.map((m) => [m.index, m]));
  const added: Match[] = [];
  for (const p of state.plan) {
    if (byIndex.has(p.index)) continue;
    const a = resolve(byIndex, p.feeders[0]);
    const b = resolve(byIndex, p.feeders[1]);
    if (a !== null && b !== null) added.push(newMatch(p.index, p.round, a, b, state.options.debias));
  }
  const matches = added.length ? [...state.matches, ...added].sort((x, y) => x.index - y.index) : state.matches;
  for (const m of added) byIndex.set(m.index, m);
  const byes: Bye[] = [];
  for (const b of state.planByes) {
    const id = resolve(byIndex, b.slot);
    if (id !== null) byes.push({ round: b.round, id });
  }
  let round = 0;
  for (const m of matches) round = Math.max(round, m.round);
  return { ...state, matches, byes, round, champion: resolve(byIndex, state.final) };
}
