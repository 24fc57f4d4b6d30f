import { CLAIM } from "./claims";

/**
 * What a resource link launch says about the graded question behind it: which collection it names
 * (the `custom` claim deep linking set, or the `collection` of its URL), and the services the platform
 * offers for it (AGS: the gradebook column; NRPS: the course roster). Pure.
 */
export const SERVICE_CLAIM = {
  custom: "https://purl.imsglobal.org/spec/lti/claim/custom",
  ags: "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint",
  nrps: "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice",
} as const;

/** The collection id a launch names, or null: a link not made by this tool's deep linking. */
export function linkedCollectionOf(claims: Record<string, unknown>): string | null {
  const custom = claims[SERVICE_CLAIM.custom] as Record<string, unknown> | undefined;
  if (typeof custom?.collection === "string" && custom.collection !== "") return custom.collection;
  const target = claims[CLAIM.targetLinkUri];
  if (typeof target !== "string") return null;
  try {
    return new URL(target).searchParams.get("collection") || null;
  } catch {
    return null;
  }
}

/** The services a launch carries, as `lti_links` keeps them; a field is absent when the claim is. */
export interface LinkServices {
  lineItemUrl?: string | null;
  lineItemsUrl?: string | null;
  agsScopes?: string[];
  membershipsUrl?: string;
}

const url = (v: unknown) => (typeof v === "string" && /^https?:\/\//i.test(v) ? v : null);

export function servicesOf(claims: Record<string, unknown>): LinkServices {
  const out: LinkServices = {};
  const ags = claims[SERVICE_CLAIM.ags] as Record<string, unknown> | undefined;
  if (ags && typeof ags === "object") {
    out.lineItemUrl = url(ags.lineitem);
    out.lineItemsUrl = url(ags.lineitems);
    out.agsScopes = Array.isArray(ags.scope) ? ags.scope.filter((s): s is string => typeof s === "string") : [];
  }
  const nrps = claims[SERVICE_CLAIM.nrps] as Record<string, unknown> | undefined;
  const memberships = url(nrps?.context_memberships_url);
  if (memberships) out.membershipsUrl = memberships;
  return out;
}

/**
 * Whether a launch of `platformId` through `resourceLinkId` may open the linked collection: only a launch
 * of the platform it was placed with, and, once a link is bound, through that link (a copied course's
 * new link is another activity: its instructor adds the question again).
 */
export function linkRefusal(
  link: { platformId: string; resourceLinkId: string | null } | null,
  launch: { platformId: string; resourceLinkId: string },
): "unknown-activity" | "activity-elsewhere" | null {
  if (!link || link.platformId !== launch.platformId) return "unknown-activity";
  if (link.resourceLinkId !== null && link.resourceLinkId !== launch.resourceLinkId) return "activity-elsewhere";
  return null;
}
