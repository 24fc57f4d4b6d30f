import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { type ProblemExtra, problemResponse } from "../problems";

/** The problem+json response for `status`, for a handler that answers rather than throws. */
export function problem(_c: Context, status: ContentfulStatusCode, detail?: string, extra: ProblemExtra = {}): Response {
  return problemResponse(status, detail, extra);
}
