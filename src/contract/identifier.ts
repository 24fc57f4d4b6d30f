import { z } from "zod";

/** Control (Cc: NUL, tab, newline...) and format (Cf: zero-width space, bidi overrides, soft hyphen...) characters. */
const INVISIBLE = /[\p{Cc}\p{Cf}]/u;

/**
 * An id as it is kept: Unicode NFC, so "é" sent precomposed and "e" + U+0301 are the same id (they look
 * the same and a reader cannot tell them apart). Comparing ids for uniqueness compares these.
 */
export function normalizeId(id: string): string {
  return id.normalize("NFC");
}

/**
 * Why `id` cannot be an id, or null: a control or format character is invisible or reorders the text
 * around it, so "ab" and "a\u200Bb", or "a" and "a\u0000", would be different ids that look alike.
 */
export function idProblem(id: string): string | null {
  const found = INVISIBLE.exec(id);
  if (!found) return null;
  const code = found[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0");
  return `must not contain control or format characters (U+${code} at character ${found.index + 1}): ids that look the same must be the same id`;
}

/**
 * A schema for an id a person reads (an answer id, an examinee, a player): 1 to `max` characters after
 * NFC, none of them control or format characters; the parsed value is the NFC form.
 */
export function identifier(max: number) {
  return z
    .string()
    .transform(normalizeId)
    .pipe(
      z
        .string()
        .min(1, "must not be empty")
        .max(max)
        .superRefine((id, ctx) => {
          const problem = idProblem(id);
          if (problem) ctx.addIssue({ code: "custom", message: problem });
        }),
    );
}

/** Path segments a URL removes before any router sees them (RFC 3986 section 5.2.4). */
const DOT_SEGMENTS = new Set([".", ".."]);

/**
 * An answer's id: an `identifier` that can also be a path segment. Its grade routes are
 * /v1/evaluations/:id/answers/:answerId/...; "." and ".." are dot segments (encodeURIComponent leaves
 * them as they are, and "%2E" is a dot to a URL parser too), so those routes could never reach them.
 */
export function answerId(max: number) {
  return identifier(max).refine((id) => !DOT_SEGMENTS.has(id), {
    message: 'must not be "." or "..": a URL drops them as path segments, so the answer\'s grade routes could not reach it',
  });
}

/**
 * A JSON object keyed by ids (e.g. model names): every key checked as `identifier` checks an id, keys
 * that are the same id after NFC refused as duplicates (as object keys they would silently merge), and
 * the parsed object keyed by the NFC forms.
 */
export function idKeyedRecord<V extends z.ZodType>(max: number, value: V) {
  return z
    .record(z.string(), value)
    .superRefine((record, ctx) => {
      const seen = new Map<string, string>();
      for (const key of Object.keys(record)) {
        const id = normalizeId(key);
        const problem = id.length === 0 ? "must not be empty" : id.length > max ? `must be at most ${max} characters` : idProblem(id);
        if (problem) ctx.addIssue({ code: "custom", path: [key], message: `this key ${problem}` });
        else if (seen.has(id))
          ctx.addIssue({ code: "custom", path: [key], message: `the same id as the key "${seen.get(id)}" once normalised (NFC)` });
        else seen.set(id, key);
      }
    })
    .transform(
      (record) => Object.fromEntries(Object.entries(record).map(([key, v]) => [normalizeId(key), v])) as Record<string, z.output<V>>,
    );
}
