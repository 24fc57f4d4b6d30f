import { knockoutOutcome } from "../evaluation";
import { callsPerMatch, isFinished, openCalls, recordCall, startKnockout } from "./knockout";
import type { MethodCore } from "./method";
import type { KnockoutState } from "./types";

export const knockout: MethodCore<KnockoutState> = {
  start: startKnockout,
  openCalls,
  record: (state, match, call, scores) => recordCall(state, match, call, [scores[0], scores[1]]),
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
