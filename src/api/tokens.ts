import { hashKey } from "./auth";

/** A random, URL-safe bearer token with a prefix that says what it is for (sh_, rc_, pc_). */
export function newToken(prefix: string): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return `${prefix}${btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")}`;
}

/** Tokens are stored as SHA-256, like API keys: a leaked table grants nothing. */
export const hashToken = hashKey;
