import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { newKey, request, sseReader, uniqueTag, until, waitUntilDone } from "./helpers";
import { setUpServices } from "./lti-course";
import { answer, C, deepLink, fieldOf, giveToolKeys, hrefOf, LEARNER, linkLaunch, postForm, textOf } from "./lti-course-helpers";
import { platformUrl, registerPlatform } from "./lti-helpers";

/** A tenant, its platform, and a question placed in a course by deep linking (3 answers close it). */
async function placed(name: string, form: Record<string, string> = {}) {
  const tag = uniqueTag(name);
  const key = await newKey(uniqueTag(`course-${name}`), ["read", "write", "admin"]);
  await registerPlatform(key, tag);
  await giveToolKeys(tag);
  const { item } = await deepLink(tag, { question: `What is a stack? [tag:${tag}]`, maxScore: "10", maxAnswers: "3", ...form });
  return { tag, key, item, collection: item.custom.collection as string };
}

const codeOf = (r: { json: unknown }) => String(r.json).match(/<code id="code">([^<]+)<\/code>/)?.[1];

/** A learner's launch, and their page's session token. */
async function learner(tag: string, item: Record<string, any>, sub: string, claims: Record<string, unknown> = {}) {
  const page = await linkLaunch(tag, item, { sub, role: "learner" }, claims);
  expect(page.status, String(page.json)).toBe(200);
  return { page, session: fieldOf(page.json, "session") as string };
}

describe("LTI resource link launches", () => {
  it("a learner answers, changes it until the question closes; a second launch shows the receipt, then the released grade", async () => {
    const { tag, key, item, collection } = await placed("learn");
    // the test LMS's own URLs: the release below posts the grade there (an address that does not
    // resolve would have workerd log each failed lookup as an uncaught error)
    const lms = platformUrl(tag);
    const ada = await learner(tag, item, "ada", {
      [C.ags]: {
        lineitem: `${lms}/lineitems/li-1`,
        lineitems: `${lms}/lineitems`,
        scope: ["https://purl.imsglobal.org/spec/lti-ags/scope/score"],
      },
      [C.nrps]: { context_memberships_url: `${lms}/memberships`, service_versions: ["2.0"] },
    });
    expect(textOf(ada.page.json, "question")).toBe(`What is a stack? [tag:${tag}]`);
    expect(textOf(ada.page.json, "who")).toBe("Student ada");
    // the launch bound the link and kept the platform's services
    const link = await env.DB.prepare("SELECT * FROM lti_links WHERE collection_id = ?").bind(collection).first<Record<string, any>>();
    expect(link).toMatchObject({
      resource_link_id: `rl-${tag}`,
      line_item_url: `${lms}/lineitems/li-1`,
      line_items_url: `${lms}/lineitems`,
      memberships_url: `${lms}/memberships`,
    });
    expect(JSON.parse(link?.ags_scopes)).toEqual(["https://purl.imsglobal.org/spec/lti-ags/scope/score"]);

    const first = await answer(ada.session, "A stack is q=3 a queue.");
    expect(first.status).toBe(201);
    expect(textOf(first.json, "notice")).toBe("Your answer was sent.");
    const receiptUrl = hrefOf(first.json, "receipt-link") as string;
    expect(receiptUrl).toMatch(/\/receipt\/rc_/);
    const changed = await answer(ada.session, "A stack is LIFO, q=8.");
    expect(changed.status).toBe(200);
    expect(textOf(changed.json, "notice")).toBe("Your answer was changed.");
    expect(textOf(changed.json, "answer")).toBe("A stack is LIFO, q=8.");
    // one answer, the changed one, under the learner's name; the receipt shows it too
    const owner = (await request("GET", `/v1/collections/${collection}`, { key })).json;
    expect(owner.answers.map((a: { name: string; text: string }) => [a.name, a.text])).toEqual([["Student ada", "A stack is LIFO, q=8."]]);
    const token = receiptUrl.split("/receipt/")[1];
    expect((await request("GET", `/v1/receipts/${token}`)).json.answer.text).toBe("A stack is LIFO, q=8.");

    // two more learners: the third answer closes the question, and its grading starts
    for (const [sub, q] of [
      ["bob", 5],
      ["cy", 2],
    ] as const) {
      const other = await learner(tag, item, sub);
      expect((await answer(other.session, `Bob or Cy's stack, q=${q}.`)).status).toBe(201);
    }
    const evaluation = await until(
      "the collection's grading",
      async () => (await request("GET", `/v1/collections/${collection}`, { key })).json.evaluation?.id ?? null,
    );
    expect((await waitUntilDone(evaluation, key)).status).toBe("completed");
    const late = await answer(ada.session, "Too late, q=9.");
    expect(late.status).toBe(409);
    expect(textOf(late.json, "notice")).toBe("This question is closed: it no longer takes answers.");

    // a second launch: the answer and its receipt, in review (manual release), no form and no grade yet
    const again = await learner(tag, item, "ada");
    expect(textOf(again.page.json, "answer")).toBe("A stack is LIFO, q=8.");
    expect(textOf(again.page.json, "status")).toBe("Closed: your teacher is reviewing the grades.");
    expect(String(again.page.json)).not.toContain("<textarea");
    expect(String(again.page.json)).not.toContain('id="grade"');
    // another's answer is nowhere on it
    expect(String(again.page.json)).not.toContain("Bob or Cy");

    expect((await request("POST", `/v1/evaluations/${evaluation}/release`, { key, body: {} })).status).toBe(200);
    const released = await learner(tag, item, "ada");
    const receipt = (await request("GET", `/v1/receipts/${token}`)).json;
    expect(textOf(released.page.json, "grade")).toBe(`${receipt.result.finalScore} of 10`);
    expect(textOf(released.page.json, "feedback")).toBe(receipt.result.feedback.text);
    expect(textOf(released.page.json, "status")).toBe("Graded.");
  });

  it("an instructor lands on the answers with a key limited to this collection for its pages", async () => {
    const { tag, key, item, collection } = await placed("teach", { maxAnswers: "2" });
    for (const [sub, q] of [
      ["ann", 7],
      ["ben", 3],
    ] as const)
      expect((await answer((await learner(tag, item, sub)).session, `Answer of ${sub}, q=${q}.`)).status).toBe(201);
    const evaluation = await until(
      "the grading",
      async () => (await request("GET", `/v1/collections/${collection}`, { key })).json.evaluation?.id ?? null,
    );
    await waitUntilDone(evaluation, key);
    const page = await linkLaunch(tag, item, { sub: "prof", role: "instructor", name: "Grace Hopper" });
    expect(page.status).toBe(200);
    expect(textOf(page.json, "count")).toBe("2");
    expect(String(page.json)).toContain("Answer of ann, q=7.");
    const collectionUrl = new URL(hrefOf(page.json, "collection-link") as string);
    const reviewUrl = new URL(hrefOf(page.json, "review-link") as string);
    expect(collectionUrl.pathname + collectionUrl.search).toBe(`/collections?id=${collection}`);
    expect(reviewUrl.pathname + reviewUrl.search).toBe(`/review?id=${evaluation}`);
    const scoped = decodeURIComponent(reviewUrl.hash.replace(/^#key=/, ""));
    expect(scoped).toMatch(/^kj_/);
    expect(collectionUrl.hash).toBe(reviewUrl.hash);
    // the key reads and releases this collection's grading, and nothing else of the tenant
    expect((await request("GET", `/v1/collections/${collection}`, { key: scoped })).status).toBe(200);
    expect((await request("GET", `/v1/evaluations/${evaluation}`, { key: scoped })).status).toBe(200);
    expect((await request("POST", `/v1/evaluations/${evaluation}/release`, { key: scoped, body: {} })).status).toBe(200);
    const other = (await request("POST", "/v1/collections", { key, body: { question: "Other", allowedOrigins: ["https://x.example"] } }))
      .json.id;
    expect((await request("GET", `/v1/collections/${other}`, { key: scoped })).status).toBe(404);
    expect((await request("GET", "/v1/collections", { key: scoped })).status).toBe(404);
    expect((await request("POST", "/v1/subjects/erase", { key: scoped, body: { examinee: "x" } })).status).toBe(404);
    const keys = (await request("GET", "/v1/audit?since=2020-01-01T00:00:00Z", { key })).json.data.filter(
      (l: { what: string }) => l.what === "key.create",
    );
    expect(keys.at(-1)).toMatchObject({ collectionId: collection, who: expect.stringMatching(/^lti:ltip_/) });
  });

  it("an instructor's page waits LTI_ROSTER_WAIT_MS for a slow roster, then opens saying so", async () => {
    const { tag, item } = await placed("slow-roster");
    const lms = platformUrl(tag);
    const nrps = { [C.nrps]: { context_memberships_url: `${lms}/memberships`, service_versions: ["2.0"] } };
    const roster = [{ user_id: "learner-1", roles: [LEARNER], name: "Ada Lovelace" }];
    // a page takes 4 s, the wait is 1.5 s in the tests (vitest.config.ts)
    await setUpServices(tag, { roster, rosterDelayMs: 4000 });
    const slow = await linkLaunch(tag, item, { sub: "prof", role: "instructor" }, nrps);
    expect(slow.status).toBe(200);
    expect(textOf(slow.json, "roster-error")).toBe(
      "The course's list of learners could not be read: the platform did not give it within 1.5 s; the roster API reads it whenever asked.",
    );
    expect(String(slow.json)).not.toContain('id="not-answered"');
    // the same platform answering at once: the list is on the page
    await setUpServices(tag, { rosterDelayMs: 0 });
    const quick = await linkLaunch(tag, item, { sub: "prof", role: "instructor" }, nrps);
    expect(String(quick.json)).toContain("<li>Ada Lovelace</li>");
  });

  it("a learner cannot act as instructor, answer for another, or reach another platform's or tenant's question", async () => {
    const { tag, key, item, collection } = await placed("guard");
    const eve = await learner(tag, item, "eve");
    // the page's session is no API key
    expect((await request("GET", `/v1/collections/${collection}`, { key: eve.session })).status).toBe(401);
    // a form edited to name another learner or collection: the session alone decides
    expect((await answer(eve.session, "Eve's own, q=4.", { sub: "ann", collection: "col_other" })).status).toBe(201);
    const owner = (await request("GET", `/v1/collections/${collection}`, { key })).json;
    expect(owner.answers.map((a: { name: string }) => a.name)).toEqual(["Student eve"]);
    expect((await answer("not-a-session", "x")).status).toBe(403);
    // nor does it open the activity picker's form, which makes collections
    const picker = await postForm("/lti/deep-link", { session: eve.session, question: "Mine now", maxScore: "10" });
    expect(picker.status).toBe(403);
    expect(codeOf(picker)).toBe("no-session");
    // the instructor's page is not reachable with a learner's roles, whatever the form says
    expect(String(eve.page.json)).not.toContain("collection-link");

    // another tenant's platform names this collection: refused in the words of a missing one
    const other = uniqueTag("guard-other");
    await registerPlatform(await newKey(uniqueTag("course-other"), ["admin"]), other);
    const foreign = await linkLaunch(other, item, { sub: "eve", role: "instructor" });
    expect(foreign.status).toBe(404);
    expect(codeOf(foreign)).toBe("unknown-activity");
    // a second platform of the same tenant is another LMS: refused too
    const sibling = uniqueTag("guard-sibling");
    await registerPlatform(key, sibling);
    expect(codeOf(await linkLaunch(sibling, item, { sub: "eve", role: "learner" }))).toBe("unknown-activity");
    // the same platform, through another link (a copied course): refused
    const copied = await linkLaunch(tag, item, { sub: "eve", role: "learner", resourceLinkId: "rl-copy" });
    expect(copied.status).toBe(409);
    expect(codeOf(copied)).toBe("activity-elsewhere");
    expect(
      codeOf(
        await linkLaunch(
          tag,
          { ...item, custom: { collection: "col_nope" }, url: "http://service.test/lti/launch" },
          { sub: "eve", role: "learner" },
        ),
      ),
    ).toBe("unknown-activity");
  });

  it("the owner's live page is told of a learner's first answer and of its change, under the same id", async () => {
    const { tag, key, item, collection } = await placed("live");
    const response = await (exports as unknown as { default: Fetcher }).default.fetch(
      new Request(`http://service.test/v1/collections/${collection}/events`, { headers: { authorization: `Bearer ${key}` } }),
    );
    const next = sseReader(response);
    expect((await next())?.event).toBe("snapshot");
    const { session } = await learner(tag, item, "liv");
    await answer(session, "First try. q=4");
    expect(await next()).toMatchObject({
      event: "answer",
      data: { answerCount: 1, answer: { id: "a1", name: "Student liv", text: "First try. q=4" } },
    });
    await answer(session, "Second try. q=6");
    expect(await next()).toMatchObject({ event: "changed", data: { answerCount: 1, answer: { id: "a1", text: "Second try. q=6" } } });
    // closed by its owner with one answer: it cannot be graded, and the stream ends
    await request("POST", `/v1/collections/${collection}/close`, { key });
    expect((await next())?.event).toBe("closed");
    expect((await next())?.event).toBe("failed");
    expect(await next()).toBeNull();
  });
});
