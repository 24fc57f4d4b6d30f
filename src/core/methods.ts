import { knockoutOutcome } from "../evaluation";
import { bracketOpenCalls, recordBracketCall, startBracket, type BracketState } from "./bracket";
import { callsPerMatch, isFinished, openCalls, recordCall, startKnockout } from "./knockout";
import type { MethodCore } from "./method";
import type { KnockoutState } from "./types";

const isBracket = (state: KnockoutState): state is BracketState => "plan" in state;

/** The knockout, paired per round (the paper) or on a fixed bracket; both end in the same outcome shape. */
export const knockout: MethodCore<KnockoutState> = {
  start: (ids, options) => (options.pairing === "bracket" ? startBracket(ids, options) : startKnockout(ids, options)),
  openCalls: (state) => (isBracket(state) ? bracketOpenCalls(state) : openCalls(state)),
  record: (state, match, call, scores) =>
    isBracket(state) ? recordBracketCall(state, match, call, [scores[0], scores[1]]) : recordCall(state, match, call, [scores[0], scores[1]]),
  isFinished,
  outcome: knockoutOutcome,
  callCount: (n, options) => (n - 1) * callsPerMatch(options),
};

/** Every method the API offers, by the name in the `method` field. */
export const METHODS = { knockout } as const;
export type MethodName = keyof typeof METHODS;

export function methodCore(name: MethodName): MethodCore<unknown> {
  return METHODS[name] as MethodCore<unknown>;
}
