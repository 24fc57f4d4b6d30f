import { absences, matchesByJudge, type PanelMode, panelAgreement } from "../core/panel";
import type { Outcome } from "../model/evaluation";
import { outcomeDiagnostics } from "./diagnostics";

/**
 * A panel's report (contract `panel`): how it shared the calls, and per judge its agreement with the
 * panel (src/core/panel.ts: Pearson and mean absolute difference), its own diagnostics from the matches
 * as it judged them, and in "all" the calls it gave no answer to (down, or failing). Null without a panel.
 */
export function panelReport(
  panel: readonly string[] | null | undefined,
  outcome: Pick<Outcome, "answers" | "matches">,
  mode: PanelMode = "cycle",
) {
  if (!panel || panel.length < 2) return null;
  const played = matchesByJudge(panel, outcome.matches, mode);
  const missed = absences(panel, outcome.matches);
  return {
    mode,
    judges: panelAgreement(panel, outcome, mode).map((j) => ({
      ...j,
      ...(mode === "all" ? { absent: missed.get(j.model) ?? 0 } : {}),
      judgeDiagnostics: outcomeDiagnostics({ answers: outcome.answers, matches: played.get(j.model) ?? [] }),
    })),
  };
}
