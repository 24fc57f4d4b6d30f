import { describe, expect, it } from "vitest";
import {
  afterScorePost,
  type GradeState,
  gradeKey,
  gradeStateOf,
  gradeToPost,
  passbackState,
  type LatestGrade,
  planScores,
  retryAfterMs,
  scoreBody,
  scoresUrl,
} from "../../../src/lti/scores";

const now = 1_800_000_000_000;
const graded = (score: number, comment: string | null = "ok"): GradeState => ({
  kind: "graded",
  scoreGiven: score,
  scoreMaximum: 10,
  comment,
});

describe("a learner's grade state", () => {
  it("is unreleased, released without a score, or graded with the final score and feedback", () => {
    const base = { finalScore: 7.5, maxScore: 10, feedback: "Good." };
    expect(gradeStateOf({ ...base, releasedAt: null })).toEqual({ kind: "unreleased" });
    expect(gradeStateOf({ ...base, releasedAt: now, finalScore: null })).toEqual({ kind: "ungraded" });
    expect(gradeStateOf({ ...base, releasedAt: now })).toEqual({ kind: "graded", scoreGiven: 7.5, scoreMaximum: 10, comment: "Good." });
    expect(gradeStateOf({ ...base, releasedAt: now, finalScore: 0, feedback: null })).toEqual(graded(0, null));
  });

  it("posts FullyGraded, PendingManual, or Pending only to a learner posted to before", () => {
    expect(gradeToPost(graded(4), false)).toEqual({ gradingProgress: "FullyGraded", scoreGiven: 4, scoreMaximum: 10, comment: "ok" });
    expect(gradeToPost(graded(4, null), false)).toEqual({ gradingProgress: "FullyGraded", scoreGiven: 4, scoreMaximum: 10 });
    expect(gradeToPost(graded(4, ""), false)).toEqual({ gradingProgress: "FullyGraded", scoreGiven: 4, scoreMaximum: 10 });
    expect(gradeToPost({ kind: "ungraded" }, false)).toEqual({ gradingProgress: "PendingManual" });
    expect(gradeToPost({ kind: "unreleased" }, false)).toBeNull();
    expect(gradeToPost({ kind: "unreleased" }, true)).toEqual({ gradingProgress: "Pending" });
  });

  it("keys a grade by everything the gradebook shows", () => {
    const keys = [graded(4), graded(4.5), graded(4, "other"), graded(4, null), { kind: "ungraded" } as const].map((s) =>
      gradeKey(gradeToPost(s, true)!),
    );
    expect(new Set(keys).size).toBe(keys.length);
    expect(gradeKey(gradeToPost(graded(4), true)!)).toBe(gradeKey(gradeToPost(graded(4), false)!));
  });
});

describe("planning a sync", () => {
  const desired = (sub: string, state: GradeState) => ({ sub, answerId: `a-${sub}`, state });
  const latestOf = (entries: [string, GradeState, number, number][]) =>
    new Map<string, LatestGrade>(
      entries.map(([sub, s, version, timestamp]) => [sub, { version, key: gradeKey(gradeToPost(s, true)!), timestamp }]),
    );

  it("queues a first grade as version 1, nothing for a learner not released and never posted", () => {
    const plan = planScores(new Map(), [desired("u1", graded(4)), desired("u2", { kind: "unreleased" })], now);
    expect(plan).toEqual([
      {
        sub: "u1",
        answerId: "a-u1",
        version: 1,
        key: gradeKey(gradeToPost(graded(4), false)!),
        grade: gradeToPost(graded(4), false),
        timestamp: now,
      },
    ]);
  });

  it("queues nothing for the same grade again: a release twice is posted once", () => {
    const latest = latestOf([["u1", graded(4), 1, now - 5000]]);
    expect(planScores(latest, [desired("u1", graded(4))], now)).toEqual([]);
  });

  it("queues a changed grade, changed feedback, a withdrawal and a release again, each a new version", () => {
    for (const next of [graded(5), graded(4, "better"), { kind: "unreleased" } as const, { kind: "ungraded" } as const]) {
      const [q] = planScores(latestOf([["u1", graded(4), 3, now - 5000]]), [desired("u1", next)], now);
      expect(q.version).toBe(4);
      expect(q.grade).toEqual(gradeToPost(next, true));
    }
    // withdrawn (Pending posted), then released again with the grade it had: posted again
    const withdrawn = new Map<string, LatestGrade>([
      ["u1", { version: 2, key: gradeKey({ gradingProgress: "Pending" }), timestamp: now - 1 }],
    ]);
    expect(planScores(withdrawn, [desired("u1", graded(4))], now)[0]).toMatchObject({
      version: 3,
      grade: { gradingProgress: "FullyGraded" },
    });
  });

  it("gives each version a timestamp after the learner's last, even within one millisecond or with a clock behind", () => {
    expect(planScores(latestOf([["u1", graded(4), 1, now]]), [desired("u1", graded(5))], now)[0].timestamp).toBe(now + 1);
    expect(planScores(latestOf([["u1", graded(4), 1, now + 9000]]), [desired("u1", graded(5))], now)[0].timestamp).toBe(now + 9001);
  });

  it("plans each learner on their own", () => {
    const latest = latestOf([["u1", graded(4), 2, now - 1]]);
    const plan = planScores(latest, [desired("u1", graded(4)), desired("u2", graded(4)), desired("u3", { kind: "ungraded" })], now);
    expect(plan.map((q) => [q.sub, q.version, q.grade.gradingProgress])).toEqual([
      ["u2", 1, "FullyGraded"],
      ["u3", 1, "PendingManual"],
    ]);
  });
});

describe("the score's body and URL", () => {
  it("is an AGS score: userId, the score, the comment, Completed and its grading progress, an ISO timestamp", () => {
    expect(scoreBody("u1", gradeToPost(graded(7.5, "Good."), false)!, now)).toEqual({
      userId: "u1",
      scoreGiven: 7.5,
      scoreMaximum: 10,
      comment: "Good.",
      activityProgress: "Completed",
      gradingProgress: "FullyGraded",
      timestamp: new Date(now).toISOString(),
    });
    expect(scoreBody("u1", { gradingProgress: "Pending" }, now)).toEqual({
      userId: "u1",
      activityProgress: "Completed",
      gradingProgress: "Pending",
      timestamp: new Date(now).toISOString(),
    });
  });

  it("appends /scores to the line item's path and keeps its query", () => {
    expect(scoresUrl("https://lms.example/api/lineitems/7")).toBe("https://lms.example/api/lineitems/7/scores");
    expect(scoresUrl("https://lms.example/api/lineitems/7/")).toBe("https://lms.example/api/lineitems/7/scores");
    expect(scoresUrl("https://moodle.example/mod/lti/services.php/2/lineitems/9/lineitem?type_id=3")).toBe(
      "https://moodle.example/mod/lti/services.php/2/lineitems/9/lineitem/scores?type_id=3",
    );
    expect(scoresUrl("https://lms.example/li?a=1&b=2#frag")).toBe("https://lms.example/li/scores?a=1&b=2#frag");
    expect(scoresUrl("not a url")).toBeNull();
  });
});

describe("after a post", () => {
  const policy = { baseMs: 1000, capMs: 8000, windowMs: 60_000 };
  const verdict = (status: number | null, n = 1, extra: { retryAfterMs?: number | null; now?: number } = {}) =>
    afterScorePost(policy, { n, status, retryAfterMs: extra.retryAfterMs ?? null, firstAt: now, now: extra.now ?? now }, () => 0.5);

  it("a 2xx is posted; any other 4xx is final", () => {
    for (const s of [200, 201, 204]) expect(verdict(s)).toEqual({ kind: "posted" });
    for (const s of [300, 302, 400, 403, 404, 409, 415, 422]) expect(verdict(s)).toEqual({ kind: "failed" });
  });

  it("a 5xx, a network error, a 408 and a 401 are retried with backoff doubling to the cap", () => {
    for (const s of [500, 502, 503, null, 408, 401]) expect(verdict(s)).toEqual({ kind: "retry", at: now + 750 });
    expect(verdict(503, 2)).toEqual({ kind: "retry", at: now + 1500 });
    expect(verdict(503, 10)).toEqual({ kind: "retry", at: now + 6000 });
  });

  it("a 429 waits its Retry-After when that is longer than the backoff", () => {
    expect(verdict(429, 1, { retryAfterMs: 5000 })).toEqual({ kind: "retry", at: now + 5000 });
    expect(verdict(429, 1, { retryAfterMs: 100 })).toEqual({ kind: "retry", at: now + 750 });
    expect(verdict(429, 1)).toEqual({ kind: "retry", at: now + 750 });
  });

  it("gives up once the retry window has passed", () => {
    expect(verdict(503, 3, { now: now + 59_000 })).toEqual({ kind: "expired" });
    expect(verdict(429, 1, { retryAfterMs: 61_000 })).toEqual({ kind: "expired" });
  });

  it("reads Retry-After as seconds or as an HTTP date", () => {
    expect(retryAfterMs("3", now)).toBe(3000);
    expect(retryAfterMs(" 0 ", now)).toBe(0);
    expect(retryAfterMs(new Date(now + 7000).toUTCString(), now)).toBe(7000);
    expect(retryAfterMs(new Date(now - 7000).toUTCString(), now)).toBe(0);
    expect(retryAfterMs(null, now)).toBeNull();
    expect(retryAfterMs("soon", now)).toBeNull();
    expect(retryAfterMs("-3", now)).toBeNull();
  });
});

describe("whether a collection's grades go to a gradebook", () => {
  const SCORE = "https://purl.imsglobal.org/spec/lti-ags/scope/score";
  const LINE_ITEM = "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem";
  it("is on with a line item and the score scope (or scopes unsaid), and says why not otherwise", () => {
    expect(passbackState(null)).toBe("off");
    expect(passbackState({ lineItemUrl: null, agsScopes: [SCORE] })).toBe("no-line-item");
    expect(passbackState({ lineItemUrl: "", agsScopes: [SCORE] })).toBe("no-line-item");
    expect(passbackState({ lineItemUrl: "https://lms.example/li/1", agsScopes: [LINE_ITEM] })).toBe("no-score-scope");
    expect(passbackState({ lineItemUrl: "https://lms.example/li/1", agsScopes: [] })).toBe("no-score-scope");
    expect(passbackState({ lineItemUrl: "https://lms.example/li/1", agsScopes: [LINE_ITEM, SCORE] })).toBe("on");
    expect(passbackState({ lineItemUrl: "https://lms.example/li/1", agsScopes: null })).toBe("on");
  });
});
