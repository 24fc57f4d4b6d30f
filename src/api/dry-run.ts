import { ProblemError } from "../problems";

/** The `dryRun` query parameter of a POST: `true` to estimate only; absent or `false` to create. */
export function dryRun(value: string | undefined): boolean {
  if (value === undefined || value === "false") return false;
  if (value === "true") return true;
  throw ProblemError.fields([{ field: "dryRun", reason: 'must be "true" or "false"' }]);
}
