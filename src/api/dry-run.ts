import type { Context } from "hono";
import { z } from "zod";
import { ProblemError } from "../platform/problems";
import type { App } from "./context";
import { changedNothing } from "./idempotency";
import type { QueryDoc } from "./route";

/**
 * The `dryRun` query parameter of a POST: `true` to estimate only; absent or `false` to create. A dry
 * run changes nothing, so nothing is kept under its Idempotency-Key (the real request may use it next).
 */
export function dryRun(c: Context<App>): boolean {
  const value = c.req.query("dryRun");
  if (value === undefined || value === "false") return false;
  if (value !== "true") throw ProblemError.fields([{ field: "dryRun", reason: 'must be "true" or "false"' }]);
  changedNothing(c);
  return true;
}

/** The `dryRun` parameter as the document shows it. */
export const dryRunQuery: QueryDoc = {
  dryRun: { schema: z.enum(["true", "false"]), description: '"true": validate and estimate, create nothing (200 with the estimate)' },
};
