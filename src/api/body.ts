import type { Context } from "hono";
import type { z } from "zod";
import { fieldErrors, ProblemError } from "../platform/problems";
import { loneSurrogates } from "./well-formed";

/**
 * The request body parsed as JSON and validated, or a thrown 400/415 problem. Written out rather than
 * through a validator middleware so that a broken body, a wrong content type and a bad field all get
 * the same problem+json shape.
 */
export async function readBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  const parsed = schema.safeParse(await readJson(c));
  if (!parsed.success) throw ProblemError.fields(fieldErrors(parsed.error));
  return parsed.data;
}

/**
 * The body parsed as JSON, unvalidated; a wrong content type, broken JSON or text that cannot be stored
 * as sent (a lone surrogate, in any field of any body) is a thrown problem.
 */
export async function readJson(c: Context): Promise<unknown> {
  const type = c.req.header("content-type") ?? "";
  if (!/^application\/(.+\+)?json\b/i.test(type))
    throw new ProblemError(415, "send the body as JSON with `Content-Type: application/json`");
  let json: unknown;
  try {
    json = JSON.parse(await c.req.text());
  } catch (err) {
    throw new ProblemError(400, `the body is not valid JSON: ${(err as Error).message}`, {
      errors: [{ field: "(body)", reason: "invalid JSON" }],
    });
  }
  const unstorable = loneSurrogates(json);
  if (unstorable.length > 0) throw ProblemError.fields(unstorable);
  return json;
}
