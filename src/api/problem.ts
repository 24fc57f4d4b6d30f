import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";

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
  404: "Not Found",
  405: "Method Not Allowed",
  409: "Conflict",
  413: "Payload Too Large",
  415: "Unsupported Media Type",
  422: "Unprocessable Content",
  429: "Too Many Requests",
  500: "Internal Server Error",
  503: "Service Unavailable",
};

export function problem(
  c: Context,
  status: ContentfulStatusCode,
  detail?: string,
  extra: { errors?: FieldError[]; headers?: Record<string, string> } = {},
): Response {
  const body: Problem = { type: "about:blank", title: titles[status] ?? "Error", status, detail, errors: extra.errors };
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/problem+json", ...extra.headers },
  });
}

/** `answers[2].id` from zod's path `["answers", 2, "id"]`. */
export function fieldName(path: readonly PropertyKey[]): string {
  let out = "";
  for (const part of path) out += typeof part === "number" ? `[${part}]` : `${out ? "." : ""}${String(part)}`;
  return out || "(body)";
}
