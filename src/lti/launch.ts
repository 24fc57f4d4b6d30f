import { CLAIM, type MessageType } from "./claims";

/**
 * Who launched, from which course and link, read from claims that passed `claimsRefusal`. Pure. The
 * collection binding and the learner's and instructor's pages are built on it later (issue 28, items 3-4).
 */
export interface Launch {
  messageType: MessageType;
  deploymentId: string;
  /** The platform's stable id of the user. */
  sub: string;
  /** The user's name when the platform sends it (it may not, by privacy setting). */
  name: string | null;
  /** What the course roles make of them here. */
  role: CourseRole;
  resourceLink: { id: string; title: string | null } | null;
  context: { id: string; title: string | null } | null;
}

/** `instructor` grades and releases; `learner` answers; `other` (a mentor, a guest) neither, for now. */
export type CourseRole = "instructor" | "learner" | "other";

const MEMBERSHIP = "http://purl.imsglobal.org/vocab/lis/v2/membership";

/**
 * The course role of a launch's `roles`. Only context (membership) roles count, as LTI asks: an
 * institution's "Instructor" who is a student in this course is a learner here. A sub-role (Instructor's
 * TeachingAssistant) counts as its principal role; the short names LTI 1.1 used ("Instructor") too.
 * Teaching roles win over a Learner role listed beside them.
 */
export function courseRole(roles: readonly unknown[]): CourseRole {
  const principal = roles.flatMap((r) => {
    if (typeof r !== "string") return [];
    if (!r.includes("/")) return [r]; // a short (deprecated) context role
    if (r.startsWith(`${MEMBERSHIP}#`)) return [r.slice(MEMBERSHIP.length + 1)];
    const sub = r.match(/^http:\/\/purl\.imsglobal\.org\/vocab\/lis\/v2\/membership\/(\w+)#\w+$/);
    return sub ? [sub[1]] : [];
  });
  if (principal.some((r) => r === "Instructor" || r === "ContentDeveloper" || r === "Administrator")) return "instructor";
  if (principal.includes("Learner")) return "learner";
  return "other";
}

export function launchOf(claims: Record<string, unknown>): Launch {
  const str = (v: unknown) => (typeof v === "string" && v !== "" ? v : null);
  const link = claims[CLAIM.resourceLink] as { id?: unknown; title?: unknown } | undefined;
  const context = claims[CLAIM.context] as { id?: unknown; title?: unknown; label?: unknown } | undefined;
  const given = [str(claims.given_name), str(claims.family_name)].filter(Boolean).join(" ");
  return {
    messageType: claims[CLAIM.messageType] as MessageType,
    deploymentId: claims[CLAIM.deploymentId] as string,
    sub: claims.sub as string,
    name: str(claims.name) ?? (given === "" ? null : given),
    role: courseRole((claims[CLAIM.roles] as unknown[]) ?? []),
    resourceLink: str(link?.id) ? { id: link?.id as string, title: str(link?.title) } : null,
    context: str(context?.id) ? { id: context?.id as string, title: str(context?.title) ?? str(context?.label) } : null,
  };
}
