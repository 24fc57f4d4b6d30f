import type { LaunchRefusal } from "./refusals";

/**
 * The LTI 1.3 claims of a launch's id_token, checked after jose has checked its signature, `iss`,
 * `aud` and `exp` (LTI Core 1.3 §5.1, IMS Security Framework §5.1.3). Pure: what must hold of the
 * verified claims, given the registration and the login they answer.
 */
export const CLAIM = {
  messageType: "https://purl.imsglobal.org/spec/lti/claim/message_type",
  version: "https://purl.imsglobal.org/spec/lti/claim/version",
  deploymentId: "https://purl.imsglobal.org/spec/lti/claim/deployment_id",
  targetLinkUri: "https://purl.imsglobal.org/spec/lti/claim/target_link_uri",
  resourceLink: "https://purl.imsglobal.org/spec/lti/claim/resource_link",
  roles: "https://purl.imsglobal.org/spec/lti/claim/roles",
  context: "https://purl.imsglobal.org/spec/lti/claim/context",
  deepLinkingSettings: "https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings",
} as const;

/** The messages a launch may carry: a resource link opened, or the activity picker (deep linking). */
export const MESSAGE_TYPES = ["LtiResourceLinkRequest", "LtiDeepLinkingRequest"] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];

/** How far a platform's clock may be ahead, and how old a token may be when it arrives. */
export const CLOCK_SKEW_S = 60;
export const MAX_TOKEN_AGE_S = 10 * 60;

export interface LaunchExpectation {
  clientId: string;
  deploymentIds: readonly string[];
  /** The nonce the login sent the platform. */
  nonce: string;
  /** Unix seconds. */
  now: number;
}

/** The first thing wrong with the verified claims, or null when the launch may proceed. */
export function claimsRefusal(claims: Record<string, unknown>, expect: LaunchExpectation): LaunchRefusal | null {
  const aud = claims.aud;
  const audiences = Array.isArray(aud) ? aud : [aud];
  // several audiences: the one the token was issued to (azp) must be this tool (OIDC Core §3.1.3.7)
  if (audiences.length > 1 && claims.azp !== expect.clientId)
    return { code: "wrong-audience", detail: "It names several audiences and its authorized party (azp) is not this tool." };
  if (claims.azp !== undefined && claims.azp !== expect.clientId)
    return { code: "wrong-audience", detail: "Its authorized party (azp) is not this tool's client id." };
  if (typeof claims.iat !== "number") return { code: "missing-claim", detail: "Missing: iat." };
  if (claims.iat > expect.now + CLOCK_SKEW_S) return { code: "not-yet-valid" };
  if (claims.iat < expect.now - MAX_TOKEN_AGE_S - CLOCK_SKEW_S) return { code: "expired", detail: "It was issued too long ago." };
  if (typeof claims.nonce !== "string" || claims.nonce !== expect.nonce) return { code: "wrong-nonce" };
  const deployment = claims[CLAIM.deploymentId];
  if (typeof deployment !== "string" || deployment === "") return { code: "missing-claim", detail: "Missing: deployment_id." };
  if (!expect.deploymentIds.includes(deployment))
    return { code: "unknown-deployment", detail: `The LMS sent deployment id "${printable(deployment)}"; register it with the platform.` };
  const type = claims[CLAIM.messageType];
  if (!MESSAGE_TYPES.includes(type as MessageType))
    return {
      code: "wrong-message-type",
      detail: `It sent "${printable(String(type))}"; knockout-judge takes ${MESSAGE_TYPES.join(" and ")}.`,
    };
  if (claims[CLAIM.version] !== "1.3.0")
    return { code: "wrong-version", detail: `It sent version "${printable(String(claims[CLAIM.version]))}".` };
  if (typeof claims.sub !== "string" || claims.sub === "") return { code: "missing-claim", detail: "Missing: sub (who launched)." };
  if (type === "LtiResourceLinkRequest") {
    const link = claims[CLAIM.resourceLink] as { id?: unknown } | undefined;
    if (typeof link?.id !== "string" || link.id === "") return { code: "missing-claim", detail: "Missing: resource_link id." };
  } else if (typeof claims[CLAIM.deepLinkingSettings] !== "object" || claims[CLAIM.deepLinkingSettings] === null) {
    return { code: "missing-claim", detail: "Missing: deep_linking_settings." };
  }
  if (!Array.isArray(claims[CLAIM.roles])) return { code: "missing-claim", detail: "Missing: roles." };
  return null;
}

/** A value received, cut short and kept to printable characters, for a refusal's words. */
function printable(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this removes
  const clean = text.replace(/[\u0000-\u001f\u007f-\u009f]/g, "");
  return clean.length > 80 ? `${clean.slice(0, 80)}…` : clean;
}
