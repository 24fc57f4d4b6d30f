import type { Context } from "hono";
import type { z } from "zod";
import { fieldErrors } from "./schemas";
import { problem } from "./problem";
import { loneSurrogates } from "./well-formed";

/**
 * The request body parsed as JSON and validated, or the problem response to send. Written out rather
 * than through a validator middleware so that a broken body, a wrong content type and a bad field all
 * get the same problem+json shape.
 */
export async function readBody<S extends z.ZodType>(
  c: Context,
  schema: S,
): Promise<{ ok: true; value: z.output<S> } | { ok: false; response: Response }> {
  const json = await readJson(c);
  if (!json.ok) return json;
  const parsed = schema.safeParse(json.value);
  if (!parsed.success) {
    const errors = fieldErrors(parsed.error);
    return { ok: false, response: problem(c, 400, errors.map((e) => `${e.field}: ${e.reason}`).join("; "), { errors }) };
  }
  return { ok: true, value: parsed.data };
}

/**
 * The body parsed as JSON, unvalidated, or the problem response for a wrong content type, broken JSON or
 * text that cannot be stored as sent (a lone surrogate, in any field of any body).
 */
export async function readJson(c: Context): Promise<{ ok: true; value: unknown } | { ok: false; response: Response }> {
  const type = c.req.header("content-type") ?? "";
  if (!/^application\/(.+\+)?json\b/i.test(type)) {
    return { ok: false, response: problem(c, 415, "send the body as JSON with `Content-Type: application/json`") };
  }
  let json: unknown;
  try {
    json = JSON.parse(await c.req.text());
  } catch (err) {
    return { ok: false, response: problem(c, 400, `the body is not valid JSON: ${(err as Error).message}`, { errors: [{ field: "(body)", reason: "invalid JSON" }] }) };
  }
  const unstorable = loneSurrogates(json);
  if (unstorable.length > 0) {
    return { ok: false, response: problem(c, 400, unstorable.map((e) => `${e.field}: ${e.reason}`).join("; "), { errors: unstorable }) };
  }
  return { ok: true, value: json };
}
