import type { Context } from "hono";
import { ProblemError } from "../platform/problems";
import type { App } from "./context";

/**
 * The origin every absolute URL this service hands out is built on (share links, receipts, embed
 * snippets, the OpenAPI `servers`): `PUBLIC_URL` when it is set. Only when it is not (local development)
 * the request's own origin, which comes from its Host header: anyone can send any Host, and a link built
 * on it would send a teacher's students to the sender's site. A `PUBLIC_URL` that is not an http(s) URL
 * is refused by name, never quoted (its value may be a secret pasted into the wrong variable).
 */
export function publicOrigin(configured: string | undefined, requestUrl: string): string {
  if (configured === undefined || configured.trim() === "") return new URL(requestUrl).origin;
  let url: URL | null = null;
  try {
    url = new URL(configured.trim());
  } catch {
    url = null;
  }
  if (!url || (url.protocol !== "https:" && url.protocol !== "http:") || url.username || url.password) {
    throw new ProblemError(
      503,
      "the service is misconfigured: PUBLIC_URL is not an http(s) URL; its operator must set it (or leave it empty)",
    );
  }
  return url.origin;
}

/** This service's public origin, for the request at hand. */
export function selfOrigin(c: Context<App>): string {
  return publicOrigin(c.env.PUBLIC_URL, c.req.url);
}
