import { defaults } from "../platform/config";
import type { Outcome } from "../model/evaluation";
import { SEED_POLICY } from "../judge/call-seed";

/** The columns of an evaluation's row that say how it was asked (src/db/schema.ts). */
export interface AskedWith {
  seed: number;
  judgeTemperature: number | null;
  judgeMaxTokens: number | null;
  promptVersion: string | null;
}

/**
 * What a rerun needs to ask the same, and the models that answered (contract `reproducibility`): the
 * settings from the row, the models and revisions from the recorded calls, each named once, in the
 * order they first answered. `top_p` is never sent, so it is null: the endpoint's own default.
 */
export function reproducibilityOf(row: AskedWith, outcome?: Pick<Outcome, "matches">) {
  // a panel in "all": each judge's answer names its own model
  const calls =
    outcome?.matches.flatMap((m) =>
      m.calls.flatMap((c) => [
        c,
        ...(c.votes ?? []).map((v) => ("model" in v ? { model: v.model ?? undefined, revision: v.revision ?? undefined } : {})),
      ]),
    ) ?? [];
  return {
    seed: row.seed,
    seedPolicy: SEED_POLICY,
    sampling: { temperature: row.judgeTemperature ?? defaults.temperature, topP: null, maxTokens: row.judgeMaxTokens },
    promptVersion: row.promptVersion,
    models: distinct(calls.map((c) => c.model)),
    revisions: distinct(calls.map((c) => c.revision)),
  };
}

function distinct(values: (string | undefined)[]): string[] {
  return [...new Set(values.filter((v): v is string => typeof v === "string" && v !== ""))];
}
