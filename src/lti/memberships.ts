/**
 * Names and Role Provisioning Services 2.0: the course's members as the platform lists them, page by
 * page. Pure: reading a page, finding the next, and telling who of the learners has answered.
 */

export const MEMBERSHIPS_MEDIA_TYPE = "application/vnd.ims.lti-nrps.v2.membershipcontainer+json";

export interface Member {
  /** The platform's id of the user: the launch's `sub`. */
  userId: string;
  name: string | null;
}

const LEARNER = /^(?:http:\/\/purl\.imsglobal\.org\/vocab\/lis\/v2\/membership#)?Learner$/;

/**
 * The active learners of one page of a membership container (NRPS §2.2): members whose context roles
 * include Learner and whose status is Active (or unsaid, which means Active). Teachers, and learners
 * who left the course (Inactive, Deleted), are not waited for.
 */
export function learnersOfPage(body: unknown): Member[] {
  const members = (body as { members?: unknown } | null)?.members;
  if (!Array.isArray(members)) return [];
  const out: Member[] = [];
  for (const m of members as Record<string, unknown>[]) {
    if (typeof m !== "object" || m === null || typeof m.user_id !== "string" || m.user_id === "") continue;
    if (m.status !== undefined && m.status !== "Active") continue;
    const roles = Array.isArray(m.roles) ? m.roles : [];
    if (!roles.some((r) => typeof r === "string" && LEARNER.test(r))) continue;
    const given = [m.given_name, m.family_name].filter((x) => typeof x === "string" && x !== "").join(" ");
    out.push({ userId: m.user_id, name: typeof m.name === "string" && m.name !== "" ? m.name : given === "" ? null : given });
  }
  return out;
}

/** The URL of the next page, from a `Link` header's `rel="next"` (RFC 8288), resolved against the page's own URL. */
export function nextPageUrl(link: string | null, pageUrl: string): string | null {
  if (!link) return null;
  for (const part of link.split(/,(?=\s*<)/)) {
    const m = part.match(/^\s*<([^>]*)>\s*;(.*)$/);
    if (!m) continue;
    const rel = m[2].match(/(?:^|;)\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,]+))/i);
    const rels = (rel?.[1] ?? rel?.[2] ?? "").toLowerCase().split(/\s+/);
    if (!rels.includes("next")) continue;
    try {
      return new URL(m[1], pageUrl).href;
    } catch {
      return null;
    }
  }
  return null;
}

/** The pages read at most, so a platform whose `next` never ends cannot hold a request forever. */
export const MAX_ROSTER_PAGES = 50;

export interface RosterEntry {
  userId: string;
  name: string | null;
  answered: boolean;
  answerId: string | null;
}

/**
 * Each learner of the course, in the platform's order, with whether they answered (their launches bound
 * an answer to their `sub`). A learner listed twice (on two pages) is listed once.
 */
export function rosterOf(members: readonly Member[], answers: ReadonlyMap<string, string>): RosterEntry[] {
  const seen = new Set<string>();
  const out: RosterEntry[] = [];
  for (const m of members) {
    if (seen.has(m.userId)) continue;
    seen.add(m.userId);
    const answerId = answers.get(m.userId) ?? null;
    out.push({ userId: m.userId, name: m.name, answered: answerId !== null, answerId });
  }
  return out;
}
