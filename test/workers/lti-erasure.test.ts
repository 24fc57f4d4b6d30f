import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { RETENTION_CRON } from "../../src/model/retention";
import worker from "../../src/worker/index";
import { seedLtiLearner } from "./canary-seed";
import { placesHolding } from "./data-scan";
import { newKey, request, uniqueTag } from "./helpers";

describe("erasing an LTI learner (POST /v1/subjects/erase with ltiUser)", () => {
  it("removes their answer, their LMS id and name everywhere; another learner's stay", async () => {
    const key = await newKey(uniqueTag("lti-erase"), ["read", "write", "admin"]);
    const [one, two] = [`cnry${crypto.randomUUID().slice(0, 8)}`, `cnry${crypto.randomUUID().slice(0, 8)}`];
    const first = await seedLtiLearner(key, one);
    await seedLtiLearner(key, two);
    expect(await placesHolding(one)).toEqual(
      expect.arrayContaining(["d1 lti_learners.sub", "d1 lti_learners.name", "d1 collection_answers.text", "d1 lti_sessions.sub"]),
    );
    // another platform's learner of the same sub is not this one
    const elsewhere = await request("POST", "/v1/subjects/erase", { key, body: { ltiUser: { platformId: "ltip_other", sub: first.sub } } });
    expect(elsewhere.json.collections).toEqual([]);
    expect(await placesHolding(one)).not.toEqual([]);

    const erased = await request("POST", "/v1/subjects/erase", {
      key,
      body: { ltiUser: { platformId: first.platformId, sub: first.sub } },
    });
    expect(erased.status).toBe(200);
    expect(erased.json.collections).toEqual([{ id: first.collection, answers: ["a1"] }]);
    expect(await placesHolding(one)).toEqual([]);
    expect(await placesHolding(two)).toContain("d1 lti_learners.name");
    // again: nothing found, the same empty answer
    expect((await request("POST", "/v1/subjects/erase", { key, body: { ltiUser: { sub: first.sub } } })).json.collections).toEqual([]);
  });

  it("refuses a body naming two people or an empty sub, by the field", async () => {
    const key = await newKey(uniqueTag("lti-erase-bad"), ["read", "write", "admin"]);
    const two = await request("POST", "/v1/subjects/erase", { key, body: { examinee: "a", ltiUser: { sub: "s" } } });
    expect(two.status).toBe(400);
    expect(two.json.errors[0].reason).toContain("exactly one of `examinee`, `answerId` and `ltiUser`");
    const empty = await request("POST", "/v1/subjects/erase", { key, body: { ltiUser: { sub: "" } } });
    expect(empty.status).toBe(400);
    expect(empty.json.errors[0].field).toBe("ltiUser.sub");
  });

  it("erasing the collection takes its learners with it", async () => {
    const key = await newKey(uniqueTag("lti-erase-col"), ["read", "write", "admin"]);
    const canary = `cnry${crypto.randomUUID().slice(0, 8)}`;
    const seeded = await seedLtiLearner(key, canary);
    expect((await request("POST", `/v1/collections/${seeded.collection}/erase`, { key })).status).toBe(200);
    expect(await placesHolding(canary)).toEqual([]);
    // a learner's page still open: its session went with the collection
    const late = await request("POST", "/lti/answer", {
      raw: new URLSearchParams({ session: seeded.session, text: "after the erasure" }).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(late.status).toBe(403);
  });

  it("erasing by examinee takes an LTI learner of that name with their answer", async () => {
    const key = await newKey(uniqueTag("lti-erase-name"), ["read", "write", "admin"]);
    const canary = `cnry${crypto.randomUUID().slice(0, 8)}`;
    const seeded = await seedLtiLearner(key, canary);
    const erased = await request("POST", "/v1/subjects/erase", { key, body: { examinee: `${canary} Learner` } });
    expect(erased.json.collections).toEqual([{ id: seeded.collection, answers: ["a1"] }]);
    expect(await placesHolding(canary)).toEqual([]);
  });

  it("the hourly retention run drops the pages' sessions that expired, which name their learner", async () => {
    const key = await newKey(uniqueTag("lti-sessions"), ["read", "write", "admin"]);
    const canary = `cnry${crypto.randomUUID().slice(0, 8)}`;
    const seeded = await seedLtiLearner(key, canary);
    expect(await placesHolding(canary)).toContain("d1 lti_sessions.sub");
    // three hours on, the learner's two-hour session has expired: moved back, as if it had been made then
    await env.DB.prepare("UPDATE lti_sessions SET expires_at = expires_at - ? WHERE sub = ?")
      .bind(3 * 3_600_000, seeded.sub)
      .run();
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: RETENTION_CRON }), env, ctx);
    await waitOnExecutionContext(ctx);
    const left = await placesHolding(canary);
    expect(left).not.toContain("d1 lti_sessions.sub");
    expect(left).toContain("d1 lti_learners.sub");
  });

  it("the hourly retention run drops the logins that expired unfinished, whose hint may be the user's id", async () => {
    const hint = `cnry${crypto.randomUUID().slice(0, 8)}`;
    const login = (state: string, expiresAt: number) =>
      env.DB.prepare(
        "INSERT INTO lti_logins (state, nonce, platform_id, login_hint, target_link_uri, expires_at) VALUES (?, 'n', 'p', ?, 'https://tool.test/lti/launch', ?)",
      )
        .bind(state, hint, expiresAt)
        .run();
    await login(`expired-${hint}`, Date.now() - 60_000);
    await login(`pending-${hint}`, Date.now() + 600_000);
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: RETENTION_CRON }), env, ctx);
    await waitOnExecutionContext(ctx);
    const left = await env.DB.prepare("SELECT state FROM lti_logins WHERE login_hint = ?").bind(hint).all<{ state: string }>();
    // the one still within its ten minutes stays for its launch
    expect(left.results.map((r) => r.state)).toEqual([`pending-${hint}`]);
  });
});
