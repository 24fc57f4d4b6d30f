import { KEY_SCOPES, type KeyScope } from "../contract/names";

/**
 * What a route asks of a tenant's key: the scope it needs, and, for a key limited to one collection,
 * what its `:id` names (a route that names none is not that key's to call).
 */
export interface Access {
  scope: KeyScope;
  within: "evaluation" | "collection" | null;
}

/**
 * The scope a route needs: its declared one, else by its method. A read (GET, and the event streams,
 * which are GETs) needs `read`; anything else changes something and needs `write`. A route that must
 * ask more (`admin`) or less (a POST that only computes) says so in its declaration.
 */
export function requiredScope(d: { method: string; scope?: KeyScope }): KeyScope {
  return d.scope ?? (d.method === "get" || d.method === "options" ? "read" : "write");
}

/** Whether a key's scopes hold `needed`: each scope holds the ones before it in KEY_SCOPES. */
export function grants(scopes: readonly KeyScope[], needed: KeyScope): boolean {
  const rank = KEY_SCOPES.indexOf(needed);
  return scopes.some((s) => KEY_SCOPES.indexOf(s) >= rank);
}

/** Why a stored key is refused at `now` (401), or null when it may be used. */
export function keyRefusal(key: { revokedAt: number | null; expiresAt: number | null }, now: number): string | null {
  if (key.revokedAt !== null) return "unknown API key";
  if (key.expiresAt !== null && key.expiresAt <= now) return `this API key expired at ${new Date(key.expiresAt).toISOString()}`;
  return null;
}

/** The refusal of a key without the scope a route needs: a 403 that names both. */
export function scopeRefusal(scopes: readonly KeyScope[], needed: KeyScope): string {
  return `this API key's scopes (${scopes.join(", ")}) do not allow this: it needs the "${needed}" scope`;
}
