import type { FieldError } from "../contract/problem";

/**
 * What a key a tenant makes for itself (`POST /v1/tenant/keys`) may be, given the key that makes it:
 * never less limited. Its requests a minute are at most the maker's (its own limit, else the
 * service's RATE_LIMIT_PER_MINUTE; 0 is none), and it expires no later than the maker does; left out,
 * it takes the maker's. Otherwise one key could lift its own limit by making another. The operator
 * (`POST /v1/keys`) sets anything and does not come here. Pure.
 */
export interface Minter {
  /** The maker's own requests a minute; null: the service's. */
  rateLimitPerMinute: number | null;
  /** Unix ms; null: never. */
  expiresAt: number | null;
}

/** A key's requests a minute in effect: its own, else the service's; 0 (or less, or not a number) is none. */
export function effectiveRateLimit(own: number | null, service: number): number {
  const limit = own ?? service;
  return Number.isFinite(limit) && limit > 0 ? limit : 0;
}

export type Minted = { ok: true; rateLimitPerMinute: number | null; expiresAt: number | null } | { ok: false; errors: FieldError[] };

/**
 * The limits of the key `minter` makes, from what the request asked (`undefined`: left out), or the
 * fields it may not have, each with its ceiling.
 */
export function mintedLimits(
  asked: { rateLimitPerMinute: number | undefined; expiresAt: number | undefined },
  minter: Minter,
  serviceRateLimit: number,
): Minted {
  const errors: FieldError[] = [];
  const ceiling = effectiveRateLimit(minter.rateLimitPerMinute, serviceRateLimit);
  // left out: the maker's own (or, with none, the service's, which is the maker's too)
  const rateLimitPerMinute = asked.rateLimitPerMinute ?? minter.rateLimitPerMinute;
  if (asked.rateLimitPerMinute !== undefined && ceiling > 0) {
    const of = minter.rateLimitPerMinute === null ? "the service's RATE_LIMIT_PER_MINUTE" : "the key making it";
    if (asked.rateLimitPerMinute === 0)
      errors.push({
        field: "rateLimitPerMinute",
        reason: `0 (no limit) is not allowed: at most ${ceiling}, the limit of ${of}; a key cannot make a key less limited than itself`,
      });
    else if (asked.rateLimitPerMinute > ceiling)
      errors.push({
        field: "rateLimitPerMinute",
        reason: `must be at most ${ceiling}, the limit of ${of}; a key cannot make a key less limited than itself`,
      });
  }
  const expiresAt = asked.expiresAt ?? minter.expiresAt;
  if (minter.expiresAt !== null && (expiresAt === null || expiresAt > minter.expiresAt))
    errors.push({
      field: "expiresAt",
      reason: `must be at most ${new Date(minter.expiresAt).toISOString()}, when the key making it expires`,
    });
  return errors.length ? { ok: false, errors } : { ok: true, rateLimitPerMinute, expiresAt };
}
