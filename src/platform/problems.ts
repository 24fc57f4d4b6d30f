import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { FieldError, Problem } from "../contract/problem";

// The shapes are the contract's (src/contract/problem.ts): a client reads what this module sends.
export { fieldErrors, fieldName, type FieldError, type Problem } from "../contract/problem";

const titles: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  409: "Conflict",
  410: "Gone",
  413: "Payload Too Large",
  415: "Unsupported Media Type",
  422: "Unprocessable Content",
  429: "Too Many Requests",
  500: "Internal Server Error",
  503: "Service Unavailable",
};

export interface ProblemExtra {
  errors?: FieldError[];
  headers?: Record<string, string>;
}

/** The problem+json response for `status`. */
export function problemResponse(status: ContentfulStatusCode, detail?: string, extra: ProblemExtra = {}): Response {
  const body: Problem = { type: "about:blank", title: titles[status] ?? "Error", status, detail, errors: extra.errors };
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/problem+json", ...extra.headers },
  });
}

/**
 * A refusal, thrown wherever it is found (a route, a validator, `createEvaluation`) and rendered once by
 * the app's `onError`: like hono's own HTTPException, it carries its response (`getResponse()`).
 */
export class ProblemError extends HTTPException {
  readonly detail: string;
  readonly errors: FieldError[] | undefined;

  constructor(status: ContentfulStatusCode, detail: string, extra: ProblemExtra = {}) {
    super(status, { message: detail, res: problemResponse(status, detail, extra) });
    this.detail = detail;
    this.errors = extra.errors;
  }

  /** A 400 that names its fields; the detail lists them all. */
  static fields(errors: FieldError[], status: ContentfulStatusCode = 400): ProblemError {
    return new ProblemError(status, errors.map((e) => `${e.field}: ${e.reason}`).join("; "), { errors });
  }
}
