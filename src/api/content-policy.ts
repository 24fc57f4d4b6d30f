/**
 * The web front's Content-Security-Policy, the one public/_headers sends with every static page (a unit
 * test holds the two equal). The pages keep the API key in localStorage: scripts come only from this
 * origin, and no other site may frame them.
 */
export const pagePolicy =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/**
 * `policy` with its frame-ancestors replaced by `origins` (none: 'none'), every other directive kept:
 * the iframe form may be framed by the sites that collect answers, and is otherwise as strict as any page.
 */
export function framedBy(policy: string, origins: readonly string[]): string {
  const directives = policy
    .split(";")
    .map((d) => d.trim())
    .filter((d) => d !== "" && d.split(/\s+/)[0].toLowerCase() !== "frame-ancestors");
  return [...directives, `frame-ancestors ${origins.length ? origins.join(" ") : "'none'"}`].join("; ");
}
