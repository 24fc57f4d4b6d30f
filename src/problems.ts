import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { z } from "zod";

/** One reason a request was refused, naming the field it concerns (a JSON path like `answers[2].id`). */
export interface FieldError {
  field: string;
  reason: string;
}

/** An RFC 9457 problem detail; every error this API sends has this shape. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail?: string;
  errors?: FieldError[];
}

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

/** `answers[2].id` from a path such as zod's `["answers", 2, "id"]`. */
export function fieldName(path: readonly PropertyKey[]): string {
  let out = "";
  for (const part of path) out += typeof part === "number" ? `[${part}]` : `${out ? "." : ""}${String(part)}`;
  return out || "(body)";
}

/** zod's issues as field errors; an unknown key is named as its own field. */
export function fieldErrors(error: z.ZodError, prefix: readonly PropertyKey[] = []): FieldError[] {
  return error.issues.flatMap((issue) => {
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => ({ field: fieldName([...prefix, ...issue.path, key]), reason: "unknown field" }));
    }
    return [{ field: fieldName([...prefix, ...issue.path]), reason: issue.message }];
  });
}
