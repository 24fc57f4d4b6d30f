import { expect } from "vitest";
import { request } from "./helpers";
import { launch, platformUrl } from "./lti-helpers";

/** The claims' long names, short. */
export const C = {
  type: "https://purl.imsglobal.org/spec/lti/claim/message_type",
  roles: "https://purl.imsglobal.org/spec/lti/claim/roles",
  link: "https://purl.imsglobal.org/spec/lti/claim/resource_link",
  custom: "https://purl.imsglobal.org/spec/lti/claim/custom",
  target: "https://purl.imsglobal.org/spec/lti/claim/target_link_uri",
  dl: "https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings",
  ags: "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint",
  nrps: "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice",
} as const;
export const INSTRUCTOR = "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor";
export const LEARNER = "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner";

/** A value of a page's element by id, or of a hidden field by name; HTML entities of `&<>"'` undone. */
export function textOf(html: string, id: string): string | undefined {
  const m = String(html).match(new RegExp(`id="${id}"[^>]*>([^<]*)<`));
  return m ? unescapeHtml(m[1]) : undefined;
}
export function fieldOf(html: string, name: string): string | undefined {
  const m = String(html).match(new RegExp(`name="${name}"[^>]*? value="([^"]*)"`));
  return m ? unescapeHtml(m[1]) : undefined;
}
const unescapeHtml = (s: string) => s.replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n)));
export const hrefOf = (html: string, id: string) => {
  const m = String(html).match(new RegExp(`id="${id}" href="([^"]*)"`));
  return m ? unescapeHtml(m[1]) : undefined;
};

/** Posts a page's form as a browser would (urlencoded). */
export function postForm(path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return request("POST", path, {
    raw: new URLSearchParams(fields).toString(),
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
  });
}

/** The tool's key set, handed to the test platform as an admin registers the tool's JWKS URL. */
export async function giveToolKeys(tag: string): Promise<void> {
  const jwks = await request("GET", "/lti/jwks");
  await fetch(`${platformUrl(tag)}/tool-jwks`, { method: "POST", body: JSON.stringify(jwks.json) });
}

/** An instructor's launch from the activity picker: the question form's page. */
export function deepLinkingLaunch(tag: string, settings: Record<string, unknown> = {}, claims: Record<string, unknown> = {}) {
  return launch(tag, {
    claims: {
      [C.type]: "LtiDeepLinkingRequest",
      [C.roles]: [INSTRUCTOR],
      [C.link]: null,
      [C.dl]: {
        deep_link_return_url: `${platformUrl(tag)}/deep-link-return`,
        accept_types: ["ltiResourceLink"],
        data: `data-${tag}`,
        ...settings,
      },
      ...claims,
    },
  });
}

/**
 * The whole deep linking: the picker's launch, the form posted with `form`, and the page's JWT posted
 * to the platform's return URL, which checks it. The platform's verdict: the items it now holds.
 */
export async function deepLink(tag: string, form: Record<string, string>) {
  const page = await deepLinkingLaunch(tag);
  expect(page.status, String(page.json)).toBe(200);
  const session = fieldOf(page.json, "session") as string;
  const returned = await postForm("/lti/deep-link", { session, ...form });
  expect(returned.status, String(returned.json)).toBe(200);
  const action = String(returned.json).match(/<form id="return" method="post" action="([^"]+)">/)?.[1] as string;
  const back = await fetch(unescapeHtml(action), {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ JWT: fieldOf(returned.json, "JWT") as string }).toString(),
  });
  const verdict = (await back.json()) as { error?: string; kid: string; data: string | null; items: Record<string, any>[] };
  expect(back.status, verdict.error).toBe(200);
  return { verdict, returned, item: verdict.items[0] };
}

/** A launch of the link the platform made from a content item: its custom claim and URL, as an LMS sends them. */
export function linkLaunch(
  tag: string,
  item: Record<string, any>,
  who: { sub: string; role: "learner" | "instructor"; name?: string | null; resourceLinkId?: string },
  claims: Record<string, unknown> = {},
) {
  return launch(tag, {
    claims: {
      sub: who.sub,
      name: who.name === undefined ? `Student ${who.sub}` : who.name,
      [C.roles]: [who.role === "learner" ? LEARNER : INSTRUCTOR],
      [C.link]: { id: who.resourceLinkId ?? `rl-${tag}`, title: item.title },
      [C.custom]: item.custom,
      [C.target]: item.url,
      ...claims,
    },
  });
}

/** A learner's answer through their page's form. */
export function answer(session: string, text: string, extra: Record<string, string> = {}) {
  return postForm("/lti/answer", { session, text, ...extra });
}
