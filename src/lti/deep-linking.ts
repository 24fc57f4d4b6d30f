import { CLAIM } from "./claims";
import type { LaunchRefusal } from "./refusals";

/**
 * LTI Deep Linking 2.0: the platform's activity picker launches the tool with deep_linking_settings
 * (where to return, what it accepts, `data` to echo), and the tool answers with a signed
 * LtiDeepLinkingResponse carrying the content items chosen. Pure: reading the settings, and the claims
 * of the response (signed in src/api with the tool's key).
 */
export interface DeepLinkingSettings {
  returnUrl: string;
  /** Opaque to the tool: echoed in the response when the platform sent it. */
  data: string | null;
}

export const DEEP_LINKING_CLAIM = {
  contentItems: "https://purl.imsglobal.org/spec/lti-dl/claim/content_items",
  data: "https://purl.imsglobal.org/spec/lti-dl/claim/data",
  msg: "https://purl.imsglobal.org/spec/lti-dl/claim/msg",
} as const;

/** The settings of a deep linking launch, or why the tool cannot answer it. */
export function deepLinkingSettingsOf(claims: Record<string, unknown>): DeepLinkingSettings | LaunchRefusal {
  const s = claims[CLAIM.deepLinkingSettings] as Record<string, unknown> | undefined;
  const returnUrl = s?.deep_link_return_url;
  if (typeof returnUrl !== "string" || !/^https?:\/\//i.test(returnUrl))
    return { code: "missing-claim", detail: "Missing: deep_linking_settings.deep_link_return_url." };
  const accepted = s?.accept_types;
  // a platform that names what it accepts must accept a resource link: that is all this tool makes
  if (Array.isArray(accepted) && !accepted.includes("ltiResourceLink"))
    return { code: "wrong-message-type", detail: "The activity picker does not accept an LTI resource link here." };
  return { returnUrl, data: typeof s?.data === "string" ? s.data : null };
}

/** The one item the tool returns: a resource link to the collection, with its gradebook column. */
export interface LinkedQuestion {
  collectionId: string;
  title: string;
  maxScore: number;
  /** The tool's launch URL (its redirect URI). */
  launchUrl: string;
}

/**
 * The `ltiResourceLink` content item (Deep Linking 2.0 §3.1): the collection named in `custom` (which
 * the platform sends back in every launch of the link) and in the URL's query, and a `lineItem` whose
 * `scoreMaximum` is the collection's maxScore, so the platform makes the gradebook column.
 */
export function resourceLinkItem(q: LinkedQuestion): Record<string, unknown> {
  const url = new URL(q.launchUrl);
  url.searchParams.set("collection", q.collectionId);
  return {
    type: "ltiResourceLink",
    title: q.title,
    url: url.href,
    custom: { collection: q.collectionId },
    lineItem: { scoreMaximum: q.maxScore, label: q.title, resourceId: q.collectionId },
  };
}

/**
 * The claims of the LtiDeepLinkingResponse (Deep Linking 2.0 §4.2): issued by the tool as its client id,
 * for the platform (aud = its issuer), with a fresh nonce, the launch's deployment id, the items and
 * the `data` echoed. iat and exp are set where it is signed.
 */
export function deepLinkingResponseClaims(r: {
  clientId: string;
  platformIssuer: string;
  deploymentId: string;
  nonce: string;
  data: string | null;
  items: Record<string, unknown>[];
  message?: string;
}): Record<string, unknown> {
  return {
    iss: r.clientId,
    aud: r.platformIssuer,
    nonce: r.nonce,
    [CLAIM.messageType]: "LtiDeepLinkingResponse",
    [CLAIM.version]: "1.3.0",
    [CLAIM.deploymentId]: r.deploymentId,
    [DEEP_LINKING_CLAIM.contentItems]: r.items,
    ...(r.data !== null ? { [DEEP_LINKING_CLAIM.data]: r.data } : {}),
    ...(r.message ? { [DEEP_LINKING_CLAIM.msg]: r.message } : {}),
  };
}

/** A title for the gradebook column: the question's first line, cut short. */
export function titleOf(question: string): string {
  const line = question.trim().split("\n")[0].trim();
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}
