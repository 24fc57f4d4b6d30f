import { z } from "zod";
import { ProblemError } from "../platform/problems";
import { base64url } from "../platform/tokens";
import { decimalInteger } from "./query-number";
import type { QueryDoc } from "./route";
/**
 * An opaque cursor for listing evaluations newest first: the (createdAt, id) of the last row a page
 * ended on, base64url-encoded so clients treat it as a token rather than building their own. The id
 * breaks ties between evaluations created in the same millisecond, so no row is skipped or repeated.
 */
export interface Position {
  createdAt: number;
  id: string;
}

export function encodeCursor(p: Position): string {
  return base64url(new TextEncoder().encode(JSON.stringify([p.createdAt, p.id])));
}

/** The position, or null when the text is not a cursor this service made. */
export function decodeCursor(text: string): Position | null {
  if (text.length > 200 || !/^[A-Za-z0-9_-]+$/.test(text)) return null;
  try {
    const value: unknown = JSON.parse(atob(text.replace(/-/g, "+").replace(/_/g, "/")));
    if (!Array.isArray(value) || value.length !== 2) return null;
    const [createdAt, id] = value;
    if (!Number.isSafeInteger(createdAt) || createdAt < 0 || typeof id !== "string" || id.length > 100) return null;
    return { createdAt, id };
  } catch {
    return null;
  }
}

/**
 * A list route's `limit` (1..max, default `defaultSize`) and `cursor` (a position this API made, or none),
 * or a 400 naming the parameter.
 */
export function pageParams(
  query: { limit?: string; cursor?: string },
  sizes: { defaultSize: number; max: number },
): { limit: number; after: Position | null } {
  const limit = query.limit === undefined ? sizes.defaultSize : decimalInteger(query.limit);
  if (limit === null || limit < 1 || limit > sizes.max) {
    const reason = `an integer from 1 to ${sizes.max}, in decimal digits`;
    throw new ProblemError(400, `limit: must be ${reason}`, { errors: [{ field: "limit", reason }] });
  }
  const after = query.cursor === undefined || query.cursor === "" ? null : decodeCursor(query.cursor);
  if (query.cursor && !after) throw ProblemError.fields([{ field: "cursor", reason: "not a cursor from this API" }]);
  return { limit, after };
}

/** The query of a listing route, as the document shows it. */
export const pageQuery: QueryDoc = {
  limit: { schema: z.number().int().min(1).max(100), description: "page size, 1 to 100 (default 20)" },
  cursor: { schema: z.string(), description: "the previous page's nextCursor" },
};
