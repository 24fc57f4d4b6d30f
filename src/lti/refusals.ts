/**
 * Why a login or launch is refused, in words a teacher can pass to their LMS admin: what went wrong and
 * where to look, never a stack, a token or a key. Each reason has the status a JSON client gets with it
 * and the same words on the HTML page (./pages.ts). Pure.
 */
export const LAUNCH_REFUSALS = {
  "missing-parameter": { status: 400, words: "The LMS did not send everything a launch needs." },
  "unknown-platform": {
    status: 400,
    words: "This LMS is not registered with knockout-judge (no platform with this issuer and client id).",
  },
  "ambiguous-platform": {
    status: 400,
    words: "Several registrations share this LMS's issuer and the LMS did not say which client id it launches as.",
  },
  "unknown-deployment": { status: 400, words: "This deployment of the tool is not registered with knockout-judge." },
  "wrong-target": { status: 400, words: "The LMS asked to open a page that is not part of knockout-judge." },
  "no-login": { status: 401, words: "This launch did not start with a login at knockout-judge, or that login was already used." },
  "login-expired": { status: 401, words: "The launch took too long after the login started." },
  "cookie-missing": {
    status: 401,
    words: "The browser did not send back the cookie knockout-judge set at login (third-party cookies are blocked in this frame).",
  },
  "platform-error": { status: 400, words: "The LMS answered the login with an error instead of a launch." },
  "malformed-token": { status: 401, words: "The LMS sent a launch token that cannot be read." },
  "bad-signature": { status: 401, words: "The launch token's signature does not match the LMS's registered public keys." },
  "unknown-key": { status: 401, words: "The launch token was signed with a key the LMS does not publish at its registered JWKS URL." },
  "jwks-unreachable": { status: 503, words: "knockout-judge could not read the LMS's public keys at its registered JWKS URL." },
  expired: { status: 401, words: "The launch token has expired (check that the LMS server's clock is right, then launch again)." },
  "not-yet-valid": { status: 401, words: "The launch token is dated in the future (check the LMS server's clock)." },
  "wrong-issuer": { status: 401, words: "The launch token comes from another issuer than the registered one." },
  "wrong-audience": { status: 401, words: "The launch token is meant for another tool (its audience is not this tool's client id)." },
  "wrong-nonce": { status: 401, words: "The launch token answers another login than this one." },
  "wrong-message-type": { status: 400, words: "The LMS sent a kind of LTI message knockout-judge does not take here." },
  "wrong-version": { status: 400, words: "The LMS sent a launch of another LTI version than 1.3.0." },
  "missing-claim": { status: 400, words: "The launch token lacks a claim LTI 1.3 requires." },
  "unknown-activity": {
    status: 404,
    words: "This activity names no question of knockout-judge placed from this LMS (add it again from the activity picker).",
  },
  "activity-elsewhere": {
    status: 409,
    words: "This question belongs to another activity of the LMS (a copied course?): add it to this course from the activity picker.",
  },
  "no-session": { status: 403, words: "This page's session is unknown or has expired: open the activity from the course again." },
  "not-for-role": { status: 403, words: "This page is not for your role in this course." },
  closed: { status: 409, words: "This question is closed: it no longer takes answers." },
  "not-configured": { status: 503, words: "LTI is not set up on this knockout-judge service (its signing keys are missing)." },
} as const satisfies Record<string, { status: number; words: string }>;

export type LaunchRefusalCode = keyof typeof LAUNCH_REFUSALS;

/** A refusal: its reason, and a detail that names what was received (an id, a claim's name), never a secret. */
export interface LaunchRefusal {
  code: LaunchRefusalCode;
  detail?: string;
}

/** The sentence of a refusal: the reason's words and, when there is one, its detail. */
export function refusalText(refusal: LaunchRefusal): string {
  const words = LAUNCH_REFUSALS[refusal.code].words;
  return refusal.detail ? `${words} ${refusal.detail}` : words;
}
