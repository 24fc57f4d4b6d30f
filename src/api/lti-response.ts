import type { Context } from "hono";
import { LTI_PAGE_POLICY, refusedPage } from "../lti/pages";
import { LAUNCH_REFUSALS, type LaunchRefusal, refusalText } from "../lti/refusals";
import { problemResponse } from "../platform/problems";
import type { App } from "./context";

/** How the LTI routes answer: a page in words for a browser, problem+json for a client asking JSON. */

/** A JSON client (Accept asks for JSON) gets problem+json; a browser gets a page in words. */
export function refused(c: Context<App>, refusal: LaunchRefusal, openAgain: string | null = null): Response {
  const { status } = LAUNCH_REFUSALS[refusal.code];
  if (/application\/(problem\+)?json/i.test(c.req.header("accept") ?? ""))
    return problemResponse(status, refusalText(refusal), { errors: [{ field: "lti", reason: refusal.code }] });
  return new Response(refusedPage(refusal, openAgain), { status, headers: pageHeaders() });
}

/** An LTI page's headers: never cached (it may hold a session), no Referer, the LTI page policy or `policy`. */
export function pageHeaders(policy: string = LTI_PAGE_POLICY): Record<string, string> {
  return {
    "content-type": "text/html; charset=utf-8",
    "cache-control": "no-store",
    "content-security-policy": policy,
    "referrer-policy": "no-referrer",
  };
}

export const isRefusal = (x: object): x is LaunchRefusal => "code" in x;

/** A random token of 32 bytes, base64url: a state, a nonce, a page's session. */
export function randomToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}
