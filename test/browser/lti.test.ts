import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { until } from "../support/poll";
import { ADMIN } from "./setup";
import { api, launch, service, shot } from "./browser";

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const lms = (tag: string) => `${inject("ltiPlatformUrl")}/${tag}`;
const ROLE = {
  instructor: "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor",
  learner: "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner",
};

/** A tenant key that may register a platform, and the test LMS of `tag` registered with it and knowing the tool's keys. */
async function registered(tag: string): Promise<string> {
  const made = await fetch(`${service()}/v1/keys`, {
    method: "POST",
    headers: { authorization: `Bearer ${ADMIN}`, "content-type": "application/json" },
    body: JSON.stringify({ tenant: `lti-${tag}`, scopes: ["read", "write", "admin"] }),
  });
  const key = ((await made.json()) as { key: string }).key;
  const platform = await api("POST", "/v1/lti/platforms", key, {
    issuer: `https://lms-${tag}.example`,
    clientId: `client-${tag}`,
    deploymentIds: ["dep-1"],
    authLoginUrl: `${lms(tag)}/authorize`,
    accessTokenUrl: `${lms(tag)}/token`,
    jwksUrl: `${lms(tag)}/jwks`,
  });
  expect(platform.status).toBe(201);
  // the LMS admin registers the tool's JWKS: here, what the tool serves at /lti/jwks
  const jwks = await (await fetch(`${service()}/lti/jwks`)).text();
  await fetch(`${lms(tag)}/tool-jwks`, { method: "POST", body: jwks });
  return key;
}

/** An instructor's launch to the activity picker (deep linking), its settings beyond the return URL as given. */
function pickerClaims(tag: string, settings: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    "https://purl.imsglobal.org/spec/lti/claim/message_type": "LtiDeepLinkingRequest",
    "https://purl.imsglobal.org/spec/lti/claim/roles": [ROLE.instructor],
    "https://purl.imsglobal.org/spec/lti/claim/resource_link": null,
    "https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings": {
      deep_link_return_url: `${lms(tag)}/deep-link-return`,
      ...settings,
    },
  };
}

/**
 * Opens the activity as the LMS does: the browser goes to the tool's login, is sent to the LMS's
 * authorization page, which posts the signed launch back to the tool. `claims` bend the LMS's token.
 */
async function openFromCourse(page: Page, tag: string, sub: string, claims: Record<string, unknown>): Promise<void> {
  const query = new URLSearchParams({
    iss: `https://lms-${tag}.example`,
    login_hint: sub,
    target_link_uri: `${service()}/lti/launch`,
    client_id: `client-${tag}`,
    lti_deployment_id: "dep-1",
    lti_message_hint: Buffer.from(JSON.stringify({ claims })).toString("base64url"),
  });
  await page.goto(`${service()}/lti/login?${query}`);
}

describe("LTI in Chromium", () => {
  it("an instructor places a question by deep linking; three learners answer it from their course; a change after the close is refused", async () => {
    const tag = `b${crypto.randomUUID().slice(0, 8)}`;
    const key = await registered(tag);

    const teacher = await browser.newPage({ viewport: { width: 900, height: 1000 } });
    await openFromCourse(teacher, tag, "prof", pickerClaims(tag, { accept_types: ["ltiResourceLink"], data: "picker-1" }));
    await teacher.getByRole("heading", { name: "Add a graded question" }).waitFor();
    await teacher.getByLabel("Question", { exact: true }).fill(`What does a stack do? [tag:${tag}]`);
    await teacher.getByLabel(/^Points/).fill("6");
    await teacher.getByLabel(/^Closes after this many answers/).fill("3");
    await shot(teacher, "lti-deep-linking-form");
    await teacher.getByRole("button", { name: "Add to the course" }).click();
    // the return page posts the signed response to the LMS, which checks it and shows what it got
    await teacher.waitForURL(/deep-link-return/);
    const back = JSON.parse((await teacher.locator("body").textContent()) ?? "{}");
    expect(back.data).toBe("picker-1");
    const item = back.items[0];
    expect(item.lineItem.scoreMaximum).toBe(6);
    await teacher.close();

    const link = {
      "https://purl.imsglobal.org/spec/lti/claim/resource_link": { id: `rl-${tag}`, title: item.title },
      "https://purl.imsglobal.org/spec/lti/claim/custom": item.custom,
      "https://purl.imsglobal.org/spec/lti/claim/target_link_uri": item.url,
      "https://purl.imsglobal.org/spec/lti/claim/roles": [ROLE.learner],
    };
    const learners = [
      ["ana", "Ana Ruiz", "A stack is last in, first out. q=7"],
      ["ben", "Ben Ode", "It queues things. q=3"],
      ["chi", "Chi Wu", "Push and pop at one end. q=6"],
    ] as const;
    const pages: Page[] = [];
    for (const [sub, name, text] of learners) {
      // each learner in a browser of their own
      const page = await (await browser.newContext({ viewport: { width: 390, height: 800 } })).newPage();
      await openFromCourse(page, tag, sub, { ...link, name });
      await expect.poll(() => page.locator("#who").textContent()).toBe(name);
      await page.getByLabel("Your answer").fill(text);
      await page.getByRole("button", { name: "Send the answer" }).click();
      await expect.poll(() => page.locator("#notice").textContent()).toBe("Your answer was sent.");
      pages.push(page);
    }
    // the third answer closed the question: Ana's change is refused in words, and her answer stands
    await pages[0].getByLabel("Change your answer").fill("Changed too late. q=9");
    await pages[0].getByRole("button", { name: "Send the new answer" }).click();
    await expect.poll(() => pages[0].locator("#notice").textContent()).toBe("This question is closed: it no longer takes answers.");
    await shot(pages[0], "lti-learner-closed");

    const collection = item.custom.collection as string;
    const owner = await until("the three answers", async () => {
      const c = (await api("GET", `/v1/collections/${collection}`, key)).json;
      return c.answerCount === 3 ? c : null;
    });
    expect(owner.status).not.toBe("open");
    expect(owner.answers.map((a: { name: string; text: string }) => [a.name, a.text])).toEqual(
      learners.map(([, name, text]) => [name, text]),
    );
    for (const page of pages) await page.context().close();
  });

  it("a learner changes an answer while the question is open, and sees only their own", async () => {
    const tag = `c${crypto.randomUUID().slice(0, 8)}`;
    const key = await registered(tag);
    // placed with the form's defaults (no closing rule: it stays open)
    const teacher = await browser.newPage();
    await openFromCourse(teacher, tag, "prof", pickerClaims(tag));
    await teacher.getByLabel("Question", { exact: true }).fill(`Name a queue's order. [tag:${tag}]`);
    await teacher.getByRole("button", { name: "Add to the course" }).click();
    await teacher.waitForURL(/deep-link-return/);
    const item = JSON.parse((await teacher.locator("body").textContent()) ?? "{}").items[0];
    await teacher.close();
    const link = {
      "https://purl.imsglobal.org/spec/lti/claim/resource_link": { id: `rl-${tag}` },
      "https://purl.imsglobal.org/spec/lti/claim/custom": item.custom,
      "https://purl.imsglobal.org/spec/lti/claim/roles": [ROLE.learner],
    };
    const other = await (await browser.newContext()).newPage();
    await openFromCourse(other, tag, "dan", { ...link, name: "Dan" });
    await other.getByLabel("Your answer").fill("Dan's secret answer");
    await other.getByRole("button", { name: "Send the answer" }).click();
    await expect.poll(() => other.locator("#notice").textContent()).toBe("Your answer was sent.");

    const page = await (await browser.newContext()).newPage();
    await openFromCourse(page, tag, "eva", { ...link, name: "Eva" });
    await page.getByLabel("Your answer").fill("First in, first out");
    await page.getByRole("button", { name: "Send the answer" }).click();
    await expect.poll(() => page.locator("#notice").textContent()).toBe("Your answer was sent.");
    await page.getByLabel("Change your answer").fill("First in, first out: FIFO");
    await page.getByRole("button", { name: "Send the new answer" }).click();
    await expect.poll(() => page.locator("#notice").textContent()).toBe("Your answer was changed.");
    // a later launch shows her answer, not Dan's
    await openFromCourse(page, tag, "eva", { ...link, name: "Eva" });
    await expect.poll(() => page.locator("#answer").textContent()).toBe("First in, first out: FIFO");
    expect(await page.content()).not.toContain("Dan's secret answer");
    await shot(page, "lti-learner-open");
    const owner = (await api("GET", `/v1/collections/${item.custom.collection}`, key)).json;
    expect(owner.answers.map((a: { name: string }) => a.name)).toEqual(["Dan", "Eva"]);
    await other.context().close();
    await page.context().close();
  });

  it("an instructor opens the course page (who has not answered) and the review page with a key of its own, releases; the gradebook gets one score per learner, the learner sees the grade", async () => {
    const tag = `d${crypto.randomUUID().slice(0, 8)}`;
    const key = await registered(tag);
    const teacher = await browser.newPage();
    await openFromCourse(teacher, tag, "prof", pickerClaims(tag));
    await teacher.getByLabel("Question", { exact: true }).fill(`What is a heap? [tag:${tag}]`);
    await teacher.getByLabel(/^Closes after this many answers/).fill("3");
    await teacher.getByRole("button", { name: "Add to the course" }).click();
    await teacher.waitForURL(/deep-link-return/);
    const item = JSON.parse((await teacher.locator("body").textContent()) ?? "{}").items[0];
    const link = {
      "https://purl.imsglobal.org/spec/lti/claim/resource_link": { id: `rl-${tag}` },
      "https://purl.imsglobal.org/spec/lti/claim/custom": item.custom,
      // the gradebook column the LMS made from the deep linking's lineItem, and the course's roster
      "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint": {
        lineitem: `${lms(tag)}/lineitems/li-1`,
        lineitems: `${lms(tag)}/lineitems`,
        scope: ["https://purl.imsglobal.org/spec/lti-ags/scope/lineitem", "https://purl.imsglobal.org/spec/lti-ags/scope/score"],
      },
      "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice": {
        context_memberships_url: `${lms(tag)}/memberships`,
        service_versions: ["2.0"],
      },
    };
    // the course has a third learner who never answers; the LMS refuses the first score with a 503
    const LEARNER_ROLE = [ROLE.learner];
    await fetch(`${lms(tag)}/services-setup`, {
      method: "POST",
      body: JSON.stringify({
        roster: [
          { user_id: "fay", name: "fay", roles: LEARNER_ROLE },
          { user_id: "gus", name: "gus", roles: LEARNER_ROLE },
          { user_id: "ivy", name: "ivy", roles: LEARNER_ROLE },
          { user_id: "hal", name: "Hal Abelson", roles: LEARNER_ROLE },
          { user_id: "prof", name: "Prof", roles: [ROLE.instructor] },
        ],
        faults: [{ status: 503 }],
      }),
    });
    const learner = await (await browser.newContext()).newPage();
    for (const [sub, text] of [
      ["fay", "A tree-shaped priority queue. q=8"],
      ["gus", "A pile. q=2"],
      ["ivy", "A complete binary tree, each parent above its children. q=6"],
    ]) {
      await openFromCourse(learner, tag, sub, { ...link, name: sub, "https://purl.imsglobal.org/spec/lti/claim/roles": [ROLE.learner] });
      await learner.getByLabel("Your answer").fill(text);
      await learner.getByRole("button", { name: "Send the answer" }).click();
      await expect.poll(() => learner.locator("#notice").textContent()).toBe("Your answer was sent.");
    }
    await until("the grading", async () => {
      const c = (await api("GET", `/v1/collections/${item.custom.collection}`, key)).json;
      return c.evaluation?.status === "completed" ? true : null;
    });

    // the instructor's launch: the answers, and the review page in a new window
    await openFromCourse(teacher, tag, "prof", {
      ...link,
      name: "Prof",
      "https://purl.imsglobal.org/spec/lti/claim/roles": [ROLE.instructor],
    });
    await expect.poll(() => teacher.locator("#count").textContent()).toBe("3");
    // from the course's roster: the one learner who has not answered
    expect(await teacher.locator("#not-answered li").allTextContents()).toEqual(["Hal Abelson"]);
    await expect.poll(() => teacher.locator("#gradebook").textContent()).toContain("0 posted");
    await shot(teacher, "lti-instructor");
    const [review] = await Promise.all([teacher.waitForEvent("popup"), teacher.locator("#review-link").click()]);
    review.on("dialog", (d) => d.accept());
    await review.getByRole("button", { name: "Release all" }).waitFor();
    // the key left the address at once, and was not saved among the browser's keys
    expect(new URL(review.url()).hash).toBe("");
    expect(await review.evaluate(() => localStorage.getItem("knockout-judge.key"))).toBeNull();
    await expect.poll(() => review.getByText("0 of 3 released").count()).toBe(1);
    await review.getByRole("button", { name: "Release all" }).click();
    await expect.poll(() => review.getByText("3 of 3 released").count()).toBe(1);
    await shot(review, "lti-review");

    // the gradebook: exactly one score per learner, after the LMS's 503 on the first post, with the
    // released grade and feedback the review page shows
    const evaluation = (await api("GET", `/v1/collections/${item.custom.collection}`, key)).json.evaluation.id as string;
    const graded = (await api("GET", `/v1/evaluations/${evaluation}`, key)).json;
    const received = await until("a score per learner", async () => {
      const s = (await (await fetch(`${lms(tag)}/services`)).json()) as { scores: { body: Record<string, unknown>; answered: number }[] };
      const posted = s.scores.filter((x) => x.answered === 200);
      return posted.length >= 3 ? s.scores : null;
    });
    expect(received.map((x) => x.answered).sort()).toEqual([200, 200, 200, 503]);
    const posted = received.filter((x) => x.answered === 200).map((x) => x.body);
    expect(posted.map((b) => b.userId).sort()).toEqual(["fay", "gus", "ivy"]);
    for (const body of posted) {
      const learnerAnswer = (await api("GET", `/v1/collections/${item.custom.collection}`, key)).json.answers.find(
        (a: { name: string }) => a.name === body.userId,
      );
      const answer = graded.answers.find((a: { id: string }) => a.id === learnerAnswer.id);
      expect(body).toMatchObject({
        scoreGiven: answer.finalScore,
        scoreMaximum: 10,
        activityProgress: "Completed",
        gradingProgress: "FullyGraded",
      });
      expect(body.comment ?? null).toBe(answer.feedback?.text ?? null);
    }
    const scores = (await api("GET", `/v1/collections/${item.custom.collection}/lti-scores`, key)).json;
    expect(scores.counts).toEqual({ queued: 0, posted: 3, failed: 0 });

    await openFromCourse(learner, tag, "fay", { ...link, name: "fay", "https://purl.imsglobal.org/spec/lti/claim/roles": [ROLE.learner] });
    await expect.poll(() => learner.locator("#grade").textContent()).toMatch(/^\d+(\.\d+)? of 10$/);
    await shot(learner, "lti-learner-graded");
    // nothing was posted twice meanwhile
    const later = (await (await fetch(`${lms(tag)}/services`)).json()) as { scores: unknown[] };
    expect(later.scores).toHaveLength(4);
    await learner.context().close();
    await teacher.close();
  });
});
