import { panelAgreement, matchesByJudge } from "../core/panel";
import type { Outcome } from "../model/evaluation";
import { outcomeDiagnostics } from "./diagnostics";

/**
 * A panel's report (contract \`panel\`): each judge's agreement with the panel (src/core/panel.ts) and
 * its own diagnostics, from the matches it played. Null without a panel.
 */
export function panelReport(panel: readonly string[] | null | undefined, outcome: Pick<Outcome, "answers" | "matches">) {
  if (!panel || panel.length < 2) return null;
  const played = matchesByJudge(panel, outcome.matches);
  return {
    mode: "cycle",
    judges: panelAgreement(panel, outcome).map((j) => ({
      ...j,
      judgeDiagnostics: outcomeDiagnostics({ answers: outcome.answers, matches: played.get(j.model) ?? [] }),
    })),
  };
}
