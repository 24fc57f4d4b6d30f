/** base64url without padding (RFC 4648 §5): safe in URLs and headers as it is. */
export function base64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

/** SHA-256 of a text (as UTF-8) or of bytes, as lowercase hex. */
export async function sha256Hex(data: string | Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", typeof data === "string" ? new TextEncoder().encode(data) : data);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * A random, URL-safe bearer token with a prefix that says what it is for (kj_ API keys, sh_ share
 * links, rc_ receipts, pc_ public collection tokens).
 */
export function newToken(prefix: string, bytes = 24): string {
  return `${prefix}${base64url(crypto.getRandomValues(new Uint8Array(bytes)))}`;
}

/**
 * Keys and tokens are stored as SHA-256 only: they are random and long, so a fast hash is enough, a
 * lookup stays one indexed query, and a leaked table grants nothing.
 */
export const hashToken = sha256Hex;
