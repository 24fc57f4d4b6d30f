import { inject } from "vitest";
import { DEFAULT_DEPLOYMENT, issuerOf, type LaunchHint } from "../support/lti-platform";
import { exports } from "cloudflare:workers";
import { request } from "./helpers";

/** The test platform of `tag` (test/support/lti-platform.ts). */
export const platformUrl = (tag: string) => `http://127.0.0.1:${inject("ltiPlatformPort")}/${tag}`;

/** The registration of the test platform of `tag`, as its admin would type it. */
export function registration(tag: string, overrides: Record<string, unknown> = {}) {
  return {
    issuer: issuerOf(tag),
    clientId: `client-${tag}`,
    deploymentIds: [DEFAULT_DEPLOYMENT],
    authLoginUrl: `${platformUrl(tag)}/authorize`,
    accessTokenUrl: `${platformUrl(tag)}/token`,
    jwksUrl: `${platformUrl(tag)}/jwks`,
    ...overrides,
  };
}

export async function registerPlatform(key: string, tag: string, overrides: Record<string, unknown> = {}) {
  const r = await request("POST", "/v1/lti/platforms", { key, body: registration(tag, overrides) });
  if (r.status !== 201) throw new Error(`could not register: ${r.status} ${JSON.stringify(r.json)}`);
  return r.json;
}

export async function jwksFetches(tag: string): Promise<number> {
  return ((await (await fetch(`${platformUrl(tag)}/stats`)).json()) as { jwksFetches: number }).jwksFetches;
}

/**
 * A login as the browser makes it, with the redirect not followed: the test follows it to the
 * platform itself (a Fetcher would send the followed request back to the service).
 */
export function loginRequest(path: string, init: RequestInit = {}): Promise<Response> {
  return (exports as unknown as { default: Fetcher }).default.fetch(
    new Request(`http://service.test${path}`, { ...init, redirect: "manual" }),
  );
}

/** What the platform's authorization page posts to the tool. */
export interface LaunchForm {
  id_token: string;
  state: string;
  cookie: string;
}

/** The login, then the platform's answer: the form the browser would post to /lti/launch. */
export async function loginAtPlatform(tag: string, hint: LaunchHint = {}, params: Record<string, string> = {}): Promise<LaunchForm> {
  const query = new URLSearchParams({
    iss: issuerOf(tag),
    login_hint: "learner-7",
    target_link_uri: "http://service.test/lti/launch",
    client_id: `client-${tag}`,
    lti_deployment_id: "dep-1",
    lti_message_hint: Buffer.from(JSON.stringify(hint)).toString("base64url"),
    ...params,
  });
  const login = await loginRequest(`/lti/login?${query}`);
  if (login.status !== 302) throw new Error(`login: ${login.status} ${await login.text()}`);
  const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0];
  const page = await (await fetch(login.headers.get("location") as string)).text();
  const field = (name: string) => page.match(new RegExp(`name="${name}" value="([^"]*)"`))?.[1] ?? "";
  return { id_token: field("id_token"), state: field("state"), cookie };
}

/** Posts the form as the browser would (with the state's cookie unless told not to), as HTML or JSON. */
export async function postLaunch(form: LaunchForm, options: { json?: boolean; withoutCookie?: boolean } = {}) {
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded" };
  if (!options.withoutCookie) headers.cookie = form.cookie;
  if (options.json) headers.accept = "application/json";
  return request("POST", "/lti/launch", { raw: new URLSearchParams({ id_token: form.id_token, state: form.state }).toString(), headers });
}

/** A whole launch: login, the platform's token, the post. */
export async function launch(tag: string, hint: LaunchHint = {}, options: { json?: boolean } = {}) {
  return postLaunch(await loginAtPlatform(tag, hint), options);
}
