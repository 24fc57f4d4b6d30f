/**
 * Entity tags for `GET /v1/evaluations/:id`: a poller that sends back the tag it has is answered 304,
 * with no body, until the evaluation changes. Weak tags: the same state always reads the same, but no
 * byte-for-byte promise is made across releases.
 */

/** A weak tag from any text: a 53-bit hash (cyrb53), enough to tell one evaluation's states apart. */
export function weakTag(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return `W/"${(4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36)}"`;
}

/**
 * Whether `If-None-Match` names `tag` (RFC 9110 13.1.2: weak comparison, a list of tags, or `*`), in
 * which case a GET is answered 304.
 */
export function notModified(ifNoneMatch: string | undefined | null, tag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === "*") return true;
  const opaque = (t: string) => t.trim().replace(/^W\//, "");
  const wanted = opaque(tag);
  return ifNoneMatch.split(",").some((t) => opaque(t) === wanted);
}
