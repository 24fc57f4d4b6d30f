import { ProblemError } from "../platform/problems";
import { tournamentStub } from "../platform/stubs";
import { ENDED } from "../model/evaluation";
import { ownEvaluation } from "./read";

/**
 * Cancels a queued or running evaluation: calls in flight are abandoned and nothing more is sent to
 * the judge; results recorded so far stay readable. Cancelling again is a no-op; one that has ended
 * otherwise is a 409. The evaluation's object does the work, so a result racing the cancel is dropped.
 */
export async function cancelEvaluation(env: Env, tenant: string, id: string): Promise<{ id: string; status: "cancelled" }> {
  const row = await ownEvaluation(env, tenant, id);
  // D1 has the final status before the object does, and a finished object may be let go a moment later:
  // asking it then was a 500
  const status = ENDED.has(row.status) ? row.status : await tournamentStub(env, row.id).cancel(row.id);
  if (status === "cancelled") return { id: row.id, status };
  throw new ProblemError(409, `the evaluation has already ${status === "failed" ? "failed" : "completed"}; there is nothing to cancel`);
}
