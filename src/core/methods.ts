import { knockoutOutcome } from "./outcome";
import { bradleyTerryStrengths, individualPlan, pairwisePlan, roundRobinPlan } from "./baselines";
import { usableExtraCalls } from "./extra";
import { bracketOpenCalls, recordBracketCall, startBracket, type BracketState } from "./bracket";
import { callsPerMatch, isFinished, openCalls, recordCall, startKnockout } from "./knockout";
import type { MethodCore, MethodName, MethodOptions } from "./method";
import {
  recordScheduled,
  scheduleFinished,
  scheduleOpenCalls,
  scheduleOutcome,
  startSchedule,
  type PlannedMatch,
  type ScheduleState,
} from "./schedule";
import type { KnockoutState } from "./types";

const isBracket = (state: KnockoutState): state is BracketState => "plan" in state;

/** The knockout, paired per round (the paper) or on a fixed bracket; both end in the same outcome shape. */
export const knockout: MethodCore<KnockoutState> = {
  start: (ids, options) => (options.pairing === "bracket" ? startBracket(ids, options) : startKnockout(ids, options)),
  openCalls: (state) => (isBracket(state) ? bracketOpenCalls(state) : openCalls(state)),
  record: (state, match, call, scores, detail) =>
    isBracket(state)
      ? recordBracketCall(state, match, call, [scores[0], scores[1]], detail)
      : recordCall(state, match, call, [scores[0], scores[1]], detail),
  isFinished,
  outcome: knockoutOutcome,
  callCount: (n, options) => (n - 1) * callsPerMatch(options) + usableExtraCalls(n, options.debias, options.extraCalls ?? 0),
};

/** A method whose calls are all planned at the start. */
function scheduled(
  plan: (ids: readonly string[], options: MethodOptions) => PlannedMatch[],
  callCount: MethodCore<ScheduleState>["callCount"],
  extras?: Parameters<typeof scheduleOutcome>[2],
): MethodCore<ScheduleState> {
  return {
    start: (ids, options) => {
      if (ids.length < 2) throw new Error("an evaluation needs at least 2 answers");
      if (options.debias === "adaptive") throw new Error("adaptive debiasing is the knockout's");
      if (options.extraCalls) throw new Error("extra calls are the knockout's");
      return startSchedule(ids, plan(ids, options), options.debias === true, options.criteria ?? []);
    },
    openCalls: scheduleOpenCalls,
    record: recordScheduled,
    isFinished: scheduleFinished,
    outcome: (state, raws) => scheduleOutcome(state, raws, extras),
    callCount,
  };
}

/** One pointwise call per answer; debiasing does not apply (there is no second position). */
export const individual = scheduled(
  (ids) => individualPlan(ids),
  (n) => n,
);

/** One round of random pairs; an odd answer out plays one extra match. */
export const pairwise = scheduled(
  (ids, options) => pairwisePlan(ids, options.seed),
  (n, options) => Math.ceil(n / 2) * callsPerMatch(options),
);

/** Every pair once, both orders when debiased; reports a Bradley-Terry strength per answer. */
export const roundRobin = scheduled(
  (ids, options) => roundRobinPlan(ids, options.seed),
  (n, options) => ((n * (n - 1)) / 2) * callsPerMatch(options),
  bradleyTerryStrengths,
);

/** Every method the API offers, by the name in the `method` field. */
export const METHODS = { knockout, individual, pairwise, "round-robin": roundRobin } as const satisfies Record<MethodName, unknown>;
export { METHOD_NAMES, type MethodName } from "./method";

export function methodCore(name: MethodName): MethodCore<unknown> {
  return METHODS[name] as MethodCore<unknown>;
}
