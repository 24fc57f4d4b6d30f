import type { LaunchRefusal } from "./refusals";

/**
 * The OIDC third-party initiated login (LTI Core 1.3 §5.1.1, IMS Security Framework §5.1.1): the
 * platform sends the browser to /lti/login, the tool answers with a redirect to the platform's
 * authorization endpoint carrying a fresh `state` and `nonce`, and the platform posts the id_token to
 * /lti/launch. Pure: reading the login's parameters and building the redirect.
 */
export interface LoginRequest {
  iss: string;
  loginHint: string;
  targetLinkUri: string;
  ltiMessageHint: string | null;
  clientId: string | null;
  deploymentId: string | null;
}

/** How long a login may take to come back as a launch. */
export const LOGIN_TTL_MS = 10 * 60_000;

export function loginRequestOf(params: Record<string, string | undefined>): LoginRequest | LaunchRefusal {
  const missing = ["iss", "login_hint", "target_link_uri"].filter((p) => !params[p]);
  if (missing.length > 0) return { code: "missing-parameter", detail: `Missing from the login: ${missing.join(", ")}.` };
  return {
    iss: params.iss as string,
    loginHint: params.login_hint as string,
    targetLinkUri: params.target_link_uri as string,
    ltiMessageHint: params.lti_message_hint || null,
    clientId: params.client_id || null,
    deploymentId: params.lti_deployment_id || null,
  };
}

/** Whether the link the platform means to open is a page of this service (`origin`, no trailing slash). */
export function isOwnTarget(targetLinkUri: string, origin: string): boolean {
  try {
    return new URL(targetLinkUri).origin === new URL(origin).origin;
  } catch {
    return false;
  }
}

/** The platform's authorization request (IMS Security Framework §5.1.1.2), as the redirect's URL. */
export function authorizationUrl(
  authLoginUrl: string,
  login: LoginRequest,
  sent: { clientId: string; redirectUri: string; state: string; nonce: string },
): string {
  const url = new URL(authLoginUrl);
  const params: Record<string, string> = {
    scope: "openid",
    response_type: "id_token",
    response_mode: "form_post",
    prompt: "none",
    client_id: sent.clientId,
    redirect_uri: sent.redirectUri,
    login_hint: login.loginHint,
    state: sent.state,
    nonce: sent.nonce,
  };
  if (login.ltiMessageHint !== null) params.lti_message_hint = login.ltiMessageHint;
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.href;
}

/**
 * The same login, started again from this service: the fallback for a frame whose browser keeps no
 * third-party cookie. Opened in a new window, where the cookie is first-party, the login runs through
 * the platform again (which checks the login_hint against its own session) and the launch lands there.
 */
export function loginAgainUrl(
  origin: string,
  login: { iss: string; clientId: string; loginHint: string; messageHint: string | null; targetLinkUri: string },
): string {
  const url = new URL("/lti/login", origin);
  url.searchParams.set("iss", login.iss);
  url.searchParams.set("login_hint", login.loginHint);
  url.searchParams.set("target_link_uri", login.targetLinkUri);
  url.searchParams.set("client_id", login.clientId);
  if (login.messageHint !== null) url.searchParams.set("lti_message_hint", login.messageHint);
  return url.href;
}

/**
 * The cookie that binds a login's state to the browser that started it: named after the state, so
 * several launches in one browser (two activities on one course page) do not overwrite each other.
 * `SameSite=None` because the launch is a cross-site POST from the LMS; `Partitioned` (CHIPS) so that
 * browsers that block third-party cookies still keep it inside the LMS's frame.
 */
export function stateCookieName(state: string): string {
  return `lti_state_${state}`;
}

export function stateCookie(state: string, maxAgeS: number): string {
  return `${stateCookieName(state)}=1; Path=/lti; Max-Age=${maxAgeS}; HttpOnly; Secure; SameSite=None; Partitioned`;
}
