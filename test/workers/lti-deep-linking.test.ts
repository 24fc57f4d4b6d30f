import { describe, expect, it } from "vitest";
import { newKey, request, uniqueTag, until, waitUntilDone } from "./helpers";
import { answer, deepLink, deepLinkingLaunch, fieldOf, giveToolKeys, LEARNER, linkLaunch, postForm, textOf } from "./lti-course-helpers";
import { platformUrl, registerPlatform } from "./lti-helpers";

/** A tenant with a platform of its own tag, which knows the tool's keys. */
async function withPlatform(name: string) {
  const tag = uniqueTag(name);
  const key = await newKey(uniqueTag(`dl-${name}`), ["read", "write", "admin"]);
  await registerPlatform(key, tag);
  await giveToolKeys(tag);
  return { tag, key };
}

const codeOf = (r: { json: unknown }) => String(r.json).match(/<code id="code">([^<]+)<\/code>/)?.[1];

describe("LTI Deep Linking 2.0", () => {
  it("the picker's form makes a collection for the platform's tenant and returns a signed resource link to the LMS", async () => {
    const { tag, key } = await withPlatform("dl");
    const form = await deepLinkingLaunch(tag);
    expect(form.status).toBe(200);
    expect(textOf(form.json, "course")).toBe("Data Structures");
    // a form posting back here only: the page's policy lets it post to this service and nowhere else
    expect(form.headers.get("content-security-policy")).toContain("form-action 'self'");
    expect(form.headers.get("cache-control")).toBe("no-store");
    const { verdict, item, returned } = await deepLink(tag, {
      question: `What is a stack? [tag:${tag}]`,
      reference: "A LIFO list.",
      maxScore: "8",
      method: "knockout",
      template: "exam",
      release: "manual",
      maxAnswers: "3",
    });
    // the return page may post to the LMS's return URL, and run only its own nonce'd script
    const policy = returned.headers.get("content-security-policy") as string;
    expect(policy).toContain(`form-action ${new URL(platformUrl(tag)).origin}`);
    expect(policy).toMatch(/script-src 'nonce-[\w-]{43}'/);
    // checked by the platform against the tool's JWKS: signed by a key the tool serves, data echoed
    const served = (await request("GET", "/lti/jwks")).json.keys.map((k: { kid: string }) => k.kid);
    expect(served).toContain(verdict.kid);
    expect(verdict.data).toBe(`data-${tag}`);
    expect(verdict.items).toHaveLength(1);
    expect(item).toMatchObject({
      type: "ltiResourceLink",
      title: `What is a stack? [tag:${tag}]`,
      lineItem: { scoreMaximum: 8 },
      custom: { collection: expect.stringMatching(/^col_/) },
    });
    expect(new URL(item.url).searchParams.get("collection")).toBe(item.custom.collection);
    // the collection is the tenant's, with what the form said
    const collection = await request("GET", `/v1/collections/${item.custom.collection}`, { key });
    expect(collection.status).toBe(200);
    expect(collection.json).toMatchObject({
      question: `What is a stack? [tag:${tag}]`,
      reference: "A LIFO list.",
      maxScore: 8,
      method: "knockout",
      release: "manual",
      closing: { maxAnswers: 3, deadline: null },
      status: "open",
    });
  });

  it("refuses a form's second post, an unknown session, and a learner in the picker", async () => {
    const { tag, key } = await withPlatform("dl-refuse");
    const page = await deepLinkingLaunch(tag);
    const session = fieldOf(page.json, "session") as string;
    const fields = { session, question: `Q [tag:${tag}]`, maxScore: "10" };
    expect((await postForm("/lti/deep-link", fields)).status).toBe(200);
    const again = await postForm("/lti/deep-link", fields);
    expect(again.status).toBe(403);
    expect(codeOf(again)).toBe("no-session");
    expect(codeOf(await postForm("/lti/deep-link", { ...fields, session: "never-issued" }))).toBe("no-session");
    const json = await postForm("/lti/deep-link", { ...fields, session: "never-issued" }, { accept: "application/json" });
    expect(json.json.errors).toEqual([{ field: "lti", reason: "no-session" }]);
    // one collection came of it
    expect((await request("GET", "/v1/collections", { key })).json.data).toHaveLength(1);
    const learner = await deepLinkingLaunch(tag, {}, { "https://purl.imsglobal.org/spec/lti/claim/roles": [LEARNER] });
    expect(learner.status).toBe(403);
    expect(codeOf(learner)).toBe("not-for-role");
    const noReturn = await deepLinkingLaunch(tag, { deep_link_return_url: null });
    expect(codeOf(noReturn)).toBe("missing-claim");
    const otherTypes = await deepLinkingLaunch(tag, { accept_types: ["file"] });
    expect(codeOf(otherTypes)).toBe("wrong-message-type");
  });

  it("shows the form again with the fields at fault named, nothing made, the session kept", async () => {
    const { tag, key } = await withPlatform("dl-bad");
    const session = fieldOf((await deepLinkingLaunch(tag)).json, "session") as string;
    const bad = await postForm("/lti/deep-link", {
      session,
      question: "  ",
      maxScore: "-1",
      maxAnswers: "1",
      deadline: "2001-01-01T10:00",
    });
    expect(bad.status).toBe(400);
    const errors = String(bad.json).match(/<div class="error" id="errors"[\s\S]*?<\/div>/)?.[0] ?? "";
    for (const label of ["Question", "Points", "Closes after this many answers", "Deadline"]) expect(errors).toContain(`<li>${label}:`);
    // what was typed is shown again
    expect(fieldOf(bad.json, "maxAnswers")).toBe("1");
    expect((await request("GET", "/v1/collections", { key })).json.data).toHaveLength(0);
    const good = await postForm("/lti/deep-link", { session, question: `Fixed [tag:${tag}]`, maxScore: "5" });
    expect(good.status).toBe(200);
    expect((await request("GET", "/v1/collections", { key })).json.data).toHaveLength(1);
  });

  it("a rubric typed in the form grades the question's answers, criterion by criterion", async () => {
    const { tag, key } = await withPlatform("dl-rubric");
    const { item } = await deepLink(tag, {
      question: `What is a stack? [tag:${tag}]`,
      method: "individual",
      rubric: "Correctness: names LIFO\nExample: gives one in use",
      maxAnswers: "2",
    });
    const collection = item.custom.collection as string;
    expect((await request("GET", `/v1/collections/${collection}`, { key })).json.rubric).toEqual({
      criteria: [
        { name: "Correctness", description: "names LIFO" },
        { name: "Example", description: "gives one in use" },
      ],
    });
    for (const [sub, q] of [
      ["r1", 7],
      ["r2", 3],
    ] as const) {
      const page = await linkLaunch(tag, item, { sub, role: "learner" });
      expect((await answer(fieldOf(page.json, "session") as string, `A stack, q=${q}.`)).status).toBe(201);
    }
    const evaluation = await until(
      "the grading",
      async () => (await request("GET", `/v1/collections/${collection}`, { key })).json.evaluation?.id ?? null,
    );
    const done = await waitUntilDone(evaluation, key);
    expect(done.status).toBe("completed");
    expect(done.rubric.criteria.map((c: { name: string }) => c.name)).toEqual(["Correctness", "Example"]);
  });
});
