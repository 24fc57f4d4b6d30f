import { passbackScopes, SCOPE } from "./access-token";

/**
 * Grade passback (LTI Assignment and Grade Services 2.0, the score service): what score each learner
 * should have in the platform's gradebook, whether that needs a post, the post's body, and what to do
 * after it. Pure: the Durable Object that queues the posts (durable-objects/lti-scores.ts) asks here.
 */

/**
 * Whether a collection's grades can go to a gradebook, and if not, why: not placed in a course by LTI;
 * no line item (the launches named no gradebook column); no score scope (the platform did not grant it).
 */
export type PassbackState = "on" | "off" | "no-line-item" | "no-score-scope";

export function passbackState(link: { lineItemUrl: string | null; agsScopes: string[] | null } | null): PassbackState {
  if (!link) return "off";
  if (!link.lineItemUrl) return "no-line-item";
  return passbackScopes(link.agsScopes).includes(SCOPE.score) ? "on" : "no-score-scope";
}

/** Where an answer stands for its student: released with a grade, released without one, or not released. */
export type GradeState =
  | { kind: "graded"; scoreGiven: number; scoreMaximum: number; comment: string | null }
  | { kind: "ungraded" }
  | { kind: "unreleased" };

export function gradeStateOf(a: {
  releasedAt: number | null;
  finalScore: number | null;
  maxScore: number;
  feedback: string | null;
}): GradeState {
  if (a.releasedAt === null) return { kind: "unreleased" };
  if (a.finalScore === null) return { kind: "ungraded" };
  return { kind: "graded", scoreGiven: a.finalScore, scoreMaximum: a.maxScore, comment: a.feedback };
}

export type GradingProgress = "FullyGraded" | "PendingManual" | "Pending";

/** What the gradebook is told: the grade, or that there is none to show (yet). */
export interface PostedGrade {
  gradingProgress: GradingProgress;
  scoreGiven?: number;
  scoreMaximum?: number;
  comment?: string;
}

/**
 * What to post for a state. A released grade is `FullyGraded`; released without a score (the judge
 * gave none) is `PendingManual` (a teacher must grade it); not released is `Pending`, which clears a
 * grade posted before (a withdrawn release), and is not posted at all to a learner never posted to.
 */
export function gradeToPost(state: GradeState, postedBefore: boolean): PostedGrade | null {
  if (state.kind === "graded")
    return {
      gradingProgress: "FullyGraded",
      scoreGiven: state.scoreGiven,
      scoreMaximum: state.scoreMaximum,
      ...(state.comment ? { comment: state.comment } : {}),
    };
  if (state.kind === "ungraded") return { gradingProgress: "PendingManual" };
  return postedBefore ? { gradingProgress: "Pending" } : null;
}

/** A grade's identity: two posts of equal keys say the same thing to the gradebook. */
export function gradeKey(g: PostedGrade): string {
  return JSON.stringify([g.gradingProgress, g.scoreGiven ?? null, g.scoreMaximum ?? null, g.comment ?? null]);
}

/** The last grade version queued for a learner. */
export interface LatestGrade {
  version: number;
  key: string;
  /** Unix ms: the timestamp that version carries. */
  timestamp: number;
}

export interface QueuedGrade {
  sub: string;
  answerId: string;
  version: number;
  key: string;
  grade: PostedGrade;
  timestamp: number;
}

/**
 * The grade versions a sync queues: one per learner whose grade differs from the last one queued for
 * them (a first grade, a changed grade or feedback, a release withdrawn or given again). The same
 * state twice queues nothing, so a release done twice is posted once. Each new version's timestamp is
 * after the learner's last, as AGS asks (a platform keeps the score with the latest timestamp).
 */
export function planScores(
  latest: ReadonlyMap<string, LatestGrade>,
  desired: readonly { sub: string; answerId: string; state: GradeState }[],
  now: number,
): QueuedGrade[] {
  const out: QueuedGrade[] = [];
  for (const d of desired) {
    const last = latest.get(d.sub);
    const grade = gradeToPost(d.state, last !== undefined);
    if (grade === null) continue;
    const key = gradeKey(grade);
    if (last?.key === key) continue;
    out.push({
      sub: d.sub,
      answerId: d.answerId,
      version: (last?.version ?? 0) + 1,
      key,
      grade,
      timestamp: Math.max(now, (last?.timestamp ?? 0) + 1),
    });
  }
  return out;
}

/** The media type of an AGS score. */
export const SCORE_MEDIA_TYPE = "application/vnd.ims.lis.v1.score+json";

/** The score's JSON, as POSTed to the line item's scores URL. */
export function scoreBody(sub: string, grade: PostedGrade, timestamp: number) {
  return {
    userId: sub,
    ...(grade.scoreGiven !== undefined ? { scoreGiven: grade.scoreGiven, scoreMaximum: grade.scoreMaximum } : {}),
    ...(grade.comment !== undefined ? { comment: grade.comment } : {}),
    activityProgress: "Completed",
    gradingProgress: grade.gradingProgress,
    timestamp: new Date(timestamp).toISOString(),
  };
}

/**
 * The score service's URL: the line item's URL with `/scores` appended to its path, its query kept
 * (AGS §3.4: a line item URL may carry a query, as Moodle's `?type_id=` does). Null when it is no URL.
 */
export function scoresUrl(lineItemUrl: string): string | null {
  let url: URL;
  try {
    url = new URL(lineItemUrl);
  } catch {
    return null;
  }
  url.pathname = `${url.pathname.replace(/\/+$/, "")}/scores`;
  return url.href;
}

/** A `Retry-After` (seconds, or an HTTP date) as ms from `now`; null when absent or unreadable. */
export function retryAfterMs(header: string | null, now: number): number | null {
  if (header === null) return null;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // an HTTP date names its day and month in words; Date.parse would read "-3" as a year
  const at = /[a-z]/i.test(text) ? Date.parse(text) : Number.NaN;
  return Number.isFinite(at) ? Math.max(0, at - now) : null;
}

/** The backoff a failed post follows (the webhooks' settings: src/platform/config.ts). */
export interface RetryPolicy {
  baseMs: number;
  capMs: number;
  windowMs: number;
}

export type PostVerdict = { kind: "posted" } | { kind: "failed" } | { kind: "retry"; at: number } | { kind: "expired" };

/**
 * After an attempt to post: a 2xx is posted; a 4xx is final (the platform will not take this score:
 * an unknown user, a closed line item), except 429 (too many requests, retried no sooner than its
 * Retry-After), 408 and 401 (the token was refused: a new one is asked before the retry). A 5xx and a
 * network error (`status` null) are retried with the webhooks' backoff, until its window has passed.
 */
export function afterScorePost(
  policy: RetryPolicy,
  attempt: { n: number; status: number | null; retryAfterMs: number | null; firstAt: number; now: number },
  random: () => number = Math.random,
): PostVerdict {
  const { status } = attempt;
  if (status !== null && status >= 200 && status < 300) return { kind: "posted" };
  if (status !== null && status >= 300 && status < 500 && status !== 429 && status !== 408 && status !== 401) return { kind: "failed" };
  const backoff = Math.round(Math.min(policy.capMs, policy.baseMs * 2 ** Math.max(0, attempt.n - 1)) * (0.5 + random() / 2));
  const at = attempt.now + Math.max(backoff, attempt.retryAfterMs ?? 0);
  if (at - attempt.firstAt > policy.windowMs) return { kind: "expired" };
  return { kind: "retry", at };
}
