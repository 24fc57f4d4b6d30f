import { z } from "zod";

/** One reason a request was refused, naming the field it concerns (a JSON path like `answers[2].id`). */
export const fieldError = z.object({ field: z.string(), reason: z.string() });
export type FieldError = z.output<typeof fieldError>;

/** An RFC 9457 problem detail; every error this API sends has this shape. */
export const problem = z
  .looseObject({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string().optional(),
    errors: z.array(fieldError).optional(),
  })
  .describe("RFC 9457 problem details: what was refused and, for a 400, each field and why");
export type Problem = z.output<typeof problem>;

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
