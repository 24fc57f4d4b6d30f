import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ltiScoresStub } from "../../src/platform/stubs";
import { request, until } from "./helpers";
import { linkedCollection, received, settledScores, setUpServices, taken } from "./lti-course";

type Version = {
  version: number;
  state: string;
  gradingProgress: string;
  scoreGiven: number | null;
  attempts: { status: number | null; error: string | null; at: string }[];
};
type Entry = { userId: string; answerId: string; state: string; versions: Version[] };

describe("LTI grade passback (AGS)", () => {
  it("on release, posts exactly one score per learner with the right values, on one token; a release again posts nothing", async () => {
    const { tag, key, collection, evaluation, answers } = await linkedCollection("ags-release");
    const note = "Good: now give an example of a stack in use.";
    await request("PUT", `/v1/evaluations/${evaluation}/answers/${answers[1].id}/feedback`, { key, body: { text: note } });
    // nothing is posted before the release
    expect((await received(tag)).scores).toEqual([]);
    const before = (await request("GET", `/v1/collections/${collection.id}/lti-scores`, { key })).json;
    expect(before.passback).toBe("on");
    expect(before.data.map((d: Entry) => d.state)).toEqual(["not-sent", "not-sent", "not-sent"]);

    const released = await request("POST", `/v1/evaluations/${evaluation}/release`, { key });
    expect(released.status).toBe(200);
    const view = await settledScores(key, collection.id, 3);
    expect(view.counts).toEqual({ queued: 0, posted: 3, failed: 0 });

    const got = await received(tag);
    const scores = taken(got.scores);
    expect(scores).toHaveLength(3);
    const feedbackOf = new Map<string, string | null>();
    for (const a of answers) {
      const history = (await request("GET", `/v1/evaluations/${evaluation}/answers/${a.id}/feedback/history`, { key })).json.data;
      feedbackOf.set(a.id, history.at(-1)?.text ?? null);
    }
    expect(feedbackOf.get(answers[1].id)).toBe(note);
    for (const [i, a] of answers.entries()) {
      const mine = released.json.answers.find((x: { id: string }) => x.id === a.id);
      const posted = scores.filter((s) => s.userId === `learner-${i}`);
      expect(posted).toHaveLength(1);
      expect(posted[0]).toEqual({
        userId: `learner-${i}`,
        scoreGiven: mine.finalScore,
        scoreMaximum: 10,
        ...(feedbackOf.get(a.id) ? { comment: feedbackOf.get(a.id) } : {}),
        activityProgress: "Completed",
        gradingProgress: "FullyGraded",
        timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      });
    }
    for (const s of got.scores) {
      // the line item's URL with /scores on its path, its query kept
      expect(s.path).toBe(`/${tag}/lineitems/li-1/scores`);
      expect(s.query).toBe("?type_id=7");
      expect(s.contentType).toBe("application/vnd.ims.lis.v1.score+json");
    }
    // one token for every score, asked with the passback's scopes
    expect(got.tokenRequests).toEqual([
      {
        scope: "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem https://purl.imsglobal.org/spec/lti-ags/scope/score",
        answered: 200,
      },
    ]);

    // released again, and again unchanged: nothing new is queued, so nothing can be posted twice
    expect((await request("POST", `/v1/evaluations/${evaluation}/release`, { key })).status).toBe(200);
    expect(
      (await request("PUT", `/v1/evaluations/${evaluation}/answers/${answers[1].id}/feedback`, { key, body: { text: note } })).status,
    ).toBe(200);
    const again = (await request("GET", `/v1/collections/${collection.id}/lti-scores`, { key })).json;
    expect(again.data.map((d: Entry) => d.versions.length)).toEqual([1, 1, 1]);
    expect(again.data.map((d: Entry) => d.state)).toEqual(["posted", "posted", "posted"]);
    expect(taken((await received(tag)).scores)).toHaveLength(3);
  });

  it("retries a 503 on the first post, a 429 after its Retry-After, a 401 on a new token, and posts each score once", async () => {
    const { tag, key, collection, evaluation } = await linkedCollection("ags-retry");
    await setUpServices(tag, {
      faults: [
        { status: 503, body: "maintenance" },
        { status: 429, retryAfter: 1 },
        // as from a platform that revoked the token: it is dropped, and the retry asks a new one
        { status: 401 },
      ],
    });
    await request("POST", `/v1/evaluations/${evaluation}/release`, { key });
    const view = await settledScores(key, collection.id, 3);
    expect(view.counts).toEqual({ queued: 0, posted: 3, failed: 0 });
    const got = await received(tag);
    expect(got.scores.map((s) => s.answered).sort()).toEqual([200, 200, 200, 401, 429, 503]);
    const scores = taken(got.scores);
    expect(new Set(scores.map((s) => s.userId)).size).toBe(3);
    const attempts = view.data.flatMap((d: Entry) => d.versions[0].attempts);
    expect(attempts.filter((a: { status: number | null }) => a.status === 503)[0].error).toBe("answered 503: maintenance");
    // the 429's retry waited its Retry-After (1 s) at least
    const limited = view.data.find((d: Entry) => d.versions[0].attempts.some((a) => a.status === 429)) as Entry;
    const [first, second] = limited.versions[0].attempts;
    expect(Date.parse(second.at) - Date.parse(first.at)).toBeGreaterThanOrEqual(1000);
    expect(got.tokenRequests).toHaveLength(2);
  });

  it("survives its object's restart: a score waiting for its retry is posted after it, once", async () => {
    const { tag, key, collection, evaluation } = await linkedCollection("ags-restart", { qualities: [4, 6] });
    await setUpServices(tag, { faults: [{ status: 429, retryAfter: 1, userId: "learner-0" }] });
    await request("POST", `/v1/evaluations/${evaluation}/release`, { key });
    await until("learner-0's first post refused, its retry waiting", async () => {
      const v = (await request("GET", `/v1/collections/${collection.id}/lti-scores`, { key })).json;
      const mine = v.data.find((d: Entry) => d.userId === "learner-0") as Entry;
      return mine.state === "queued" && mine.versions[0].attempts.length === 1;
    });
    // killed as the runtime disposes of an object on a restart: the queue and its alarm are in storage
    await runInDurableObject(ltiScoresStub(env, collection.id), (_i: unknown, state: DurableObjectState) =>
      state.abort("Instance dispose (a simulated crash)"),
    ).catch(() => {});
    const view = await settledScores(key, collection.id, 2);
    expect(view.counts).toEqual({ queued: 0, posted: 2, failed: 0 });
    const mine = view.data.find((d: Entry) => d.userId === "learner-0") as Entry;
    expect(mine.versions[0].attempts.map((a) => a.status)).toEqual([429, 200]);
    expect(
      taken((await received(tag)).scores)
        .map((s) => s.userId)
        .sort(),
    ).toEqual(["learner-0", "learner-1"]);
  });

  it("posts a changed grade and changed feedback again, a withdrawn release as Pending, and nothing for an unchanged state", async () => {
    const { tag, key, collection, evaluation, answers } = await linkedCollection("ags-change");
    const first = answers[0].id;
    await request("POST", `/v1/evaluations/${evaluation}/release`, { key, body: { answers: [first] } });
    // only the released answer's learner is posted to
    let view = await settledScores(key, collection.id, 1);
    expect(view.data.map((d: Entry) => d.state)).toEqual(["posted", "not-sent", "not-sent"]);

    await request("PUT", `/v1/evaluations/${evaluation}/answers/${first}/grade`, { key, body: { score: 6.3 } });
    view = await settledScores(key, collection.id, 1);
    await request("PUT", `/v1/evaluations/${evaluation}/answers/${first}/feedback`, { key, body: { text: "Clearer now." } });
    view = await settledScores(key, collection.id, 1);
    await request("DELETE", `/v1/evaluations/${evaluation}/release`, { key, body: { answers: [first] } });
    view = await settledScores(key, collection.id, 1);
    // withdrawn twice: the same state, nothing more
    await request("DELETE", `/v1/evaluations/${evaluation}/release`, { key, body: { answers: [first] } });
    // a teacher grade on an answer not released changes nothing the gradebook shows
    await request("PUT", `/v1/evaluations/${evaluation}/answers/${answers[2].id}/grade`, { key, body: { score: 2 } });
    view = (await request("GET", `/v1/collections/${collection.id}/lti-scores`, { key })).json;

    const got = await received(tag);
    const scores = taken(got.scores);
    expect(scores.map((s) => s.userId)).toEqual(["learner-0", "learner-0", "learner-0", "learner-0"]);
    // four posts, one token: it is kept until a minute before it expires
    expect(got.tokenRequests).toHaveLength(1);
    expect(scores[1]).toMatchObject({ scoreGiven: 6.5, scoreMaximum: 10, gradingProgress: "FullyGraded" });
    expect(scores[2]).toMatchObject({ scoreGiven: 6.5, comment: "Clearer now.", gradingProgress: "FullyGraded" });
    expect(scores[3]).toEqual({
      userId: "learner-0",
      activityProgress: "Completed",
      gradingProgress: "Pending",
      timestamp: expect.any(String),
    });
    // each version's timestamp is after the one before: the platform keeps the latest
    const times = scores.map((s) => Date.parse(s.timestamp as string));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(new Set(times).size).toBe(4);
    const log = view.data[0] as Entry;
    expect(log.versions.map((v) => [v.version, v.state, v.gradingProgress])).toEqual([
      [1, "posted", "FullyGraded"],
      [2, "posted", "FullyGraded"],
      [3, "posted", "FullyGraded"],
      [4, "posted", "Pending"],
    ]);
    expect(view.data.slice(1).map((d: Entry) => d.versions.length)).toEqual([0, 0]);
  });

  it("a 4xx is final: that learner's score fails with the platform's words, the others are posted", async () => {
    const { tag, key, collection, evaluation } = await linkedCollection("ags-4xx");
    await setUpServices(tag, { faults: [{ status: 422, userId: "learner-1", body: "user learner-1 is not enrolled in this course" }] });
    await request("POST", `/v1/evaluations/${evaluation}/release`, { key });
    const view = await settledScores(key, collection.id, 3);
    expect(view.counts).toEqual({ queued: 0, posted: 2, failed: 1 });
    const failed = view.data.find((d: Entry) => d.userId === "learner-1") as Entry;
    expect(failed.state).toBe("failed");
    expect(failed.versions[0].attempts).toEqual([
      { n: 1, at: expect.any(String), status: 422, error: "answered 422: user learner-1 is not enrolled in this course" },
    ]);
    expect((await received(tag)).scores.filter((s) => s.body.userId === "learner-1")).toHaveLength(1);
  });

  it("a collection released automatically posts its grades when grading ends, with no release asked, more than six at once", async () => {
    const qualities = [4, 9, 2, 7, 5, 8, 3, 6];
    const { tag, key, collection } = await linkedCollection("ags-auto", { qualities, release: "auto" });
    const view = await settledScores(key, collection.id, qualities.length);
    expect(view.counts.posted).toBe(qualities.length);
    const learners = qualities.map((_, i) => `learner-${i}`).sort();
    expect(
      taken((await received(tag)).scores)
        .map((s) => s.userId)
        .sort(),
    ).toEqual(learners);
  });

  it("says why nothing is posted: no line item, or no score scope granted", async () => {
    const noItem = await linkedCollection("ags-noitem", { qualities: [4, 6], lineItemUrl: null });
    await request("POST", `/v1/evaluations/${noItem.evaluation}/release`, { key: noItem.key });
    const a = (await request("GET", `/v1/collections/${noItem.collection.id}/lti-scores`, { key: noItem.key })).json;
    expect(a).toMatchObject({ passback: "no-line-item", lineItemUrl: null, counts: { queued: 0, posted: 0, failed: 0 } });
    const noScope = await linkedCollection("ags-noscope", {
      qualities: [4, 6],
      scopes: ["https://purl.imsglobal.org/spec/lti-ags/scope/lineitem"],
    });
    await request("POST", `/v1/evaluations/${noScope.evaluation}/release`, { key: noScope.key });
    const b = (await request("GET", `/v1/collections/${noScope.collection.id}/lti-scores`, { key: noScope.key })).json;
    expect(b.passback).toBe("no-score-scope");
    expect(b.data.map((d: Entry) => d.state)).toEqual(["not-sent", "not-sent"]);
    expect((await received(noItem.tag)).scores).toEqual([]);
    expect((await received(noScope.tag)).scores).toEqual([]);
  });
});
