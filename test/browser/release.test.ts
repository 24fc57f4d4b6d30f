import type { Browser, Dialog, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, launch, newKey, service, shot } from "./browser";
import { until } from "../support/poll";

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

/** A page of the service with `key` saved, as the grade page saves it. */
async function withKey(key: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  await page.goto(service());
  await page.evaluate((k) => localStorage.setItem("knockout-judge.key", k), key);
  return page;
}

/** Sends an answer through the embedded form; returns its receipt link (as collect.test.ts does). */
async function answer(site: Page, text: string, name: string): Promise<string> {
  await site.getByLabel("Your answer").fill(text);
  await site.getByLabel("Your name").fill(name);
  const links = site.getByRole("link", { name: /\/receipt\/rc_/ });
  const before = await links.count();
  await site.getByRole("button", { name: "Send my answer" }).click();
  await expect.poll(() => links.count(), { timeout: 15_000 }).toBe(before + 1);
  return (await links.last().getAttribute("href"))!;
}

/** What a student's receipt says about the result once it has loaded, and its feedback paragraph (null when none). */
async function openReceipt(url: string): Promise<{ text: string; feedback: string | null }> {
  const page = await browser.newPage({ viewport: { width: 390, height: 760 } });
  await page.goto(url);
  await page.locator("#receipt").waitFor();
  const text = (await page.locator("#result").textContent())!;
  const shown = page.locator("#result .feedback");
  const feedback = (await shown.count()) > 0 ? await shown.textContent() : null;
  await page.close();
  return { text, feedback };
}

const receiptResult = async (url: string) => (await openReceipt(url)).text;

/** The evaluation's released answers, as the service has them. */
async function releasedIds(id: string, key: string): Promise<string[]> {
  const result = (await api("GET", `/v1/evaluations/${id}?exclude=texts`, key)).json;
  return result.answers.filter((a: any) => a.releasedAt !== null).map((a: any) => a.id);
}

const REVIEWING = "being reviewed by your teacher";

describe("the review page's release workflow", () => {
  it("a manual collection: a teacher grades one answer, releases it, and only that student sees a grade", async () => {
    const key = await newKey("release-teacher");
    // [parse-once]: every judge reply is read on the second try, so every answer carries a review reason
    const created = await api("POST", "/v1/collections", key, {
      question: `What does a stack do? [tag:release-${Date.now()}] [parse-once]`,
      maxScore: 10,
      allowedOrigins: [inject("otherSiteUrl")],
      release: "manual",
    });
    expect(created.status).toBe(201);
    // a collection asks the judge for each student's feedback unless told otherwise
    expect(created.json.feedback).toBe("judge");

    // three students answer on another origin
    const site = await browser.newPage({ viewport: { width: 900, height: 800 } });
    await site.goto(`${inject("otherSiteUrl")}/page?embed=${encodeURIComponent(created.json.embed.script)}`);
    const texts = { ada: "Last in, first out. q=8", bob: "A stack is a kind of list. q=3", cy: "Push and pop on top. q=6" };
    const receipts = {
      ada: await answer(site, texts.ada, "Ada"),
      bob: await answer(site, texts.bob, "Bob"),
      cy: await answer(site, texts.cy, "Cy"),
    };
    await site.close();

    // the teacher closes it on the collections page, waits for the grading, opens the review
    const page = await withKey(key);
    await page.goto(`${service()}/collections?id=${created.json.id}`);
    await page.getByText("3 answers so far.").waitFor();
    await page.getByRole("button", { name: "Close it now and grade" }).click();
    await page.getByRole("link", { name: "Review and grade the answers" }).click({ timeout: 30_000 });
    const cards = page.locator("#answers li");
    await expect.poll(() => cards.count(), { timeout: 15_000 }).toBe(3);
    const evaluationId = new URL(page.url()).searchParams.get("id")!;
    expect(await page.locator("#answers li .reasons").count()).toBe(3);
    expect(await page.locator("#release-count").textContent()).toBe("0 of 3 released");
    // before any release, every receipt says it is being reviewed
    expect(await receiptResult(receipts.ada)).toContain(REVIEWING);

    const dialogs: string[] = [];
    let confirmIt = false;
    page.on("dialog", (d: Dialog) => {
      dialogs.push(d.message());
      void (confirmIt ? d.accept() : d.dismiss());
    });

    // grade Bob's answer with the page's grade field, then release that one answer
    const bob = cards.filter({ hasText: texts.bob });
    await bob.getByLabel(/^Your grade for/).fill("7");
    await bob.getByRole("button", { name: "Save", exact: true }).click();
    await expect
      .poll(() => bob.locator(".release-row").textContent(), { timeout: 15_000 })
      .toContain("Final grade 7 of 10 (your grade). Not released.");
    // and rewrite the judge's feedback for Bob: his receipt will show the teacher's words
    const judged = (await api("GET", `/v1/evaluations/${evaluationId}`, key)).json.answers as any[];
    const judgeFeedback = (text: string) => judged.find((a) => a.text === text)!.feedback;
    for (const text of Object.values(texts)) expect(judgeFeedback(text)).toMatchObject({ from: "judge" });
    const bobBox = bob.getByLabel(/^Feedback for the student of/);
    const original = await bobBox.inputValue();
    expect(original).toBe(judgeFeedback(texts.bob).text);
    expect(original).toMatch(/^Your answer is at quality 3 of 10\./); // the test judge's words for q=3
    expect(await bob.locator(".feedback-form label").textContent()).toMatch(/\(written by the judge\)$/);
    const note = "Good start: now say what push and pop do to the top.";
    await bobBox.fill(note);
    await bob.getByRole("button", { name: "Save feedback" }).click();
    await bob.getByText("Feedback saved.").waitFor({ timeout: 15_000 });
    expect(await bob.locator(".feedback-form label").textContent()).toMatch(/\(edited by you\)$/);
    // the filter: reviewed is graded by the teacher
    await page.getByLabel("Show", { exact: true }).selectOption("reviewed");
    expect(await cards.allTextContents()).toEqual([expect.stringContaining(texts.bob)]);
    await page.getByLabel("Show", { exact: true }).selectOption("not-reviewed");
    expect(await cards.count()).toBe(2);
    expect((await cards.allTextContents()).join()).not.toContain(texts.bob);
    await page.getByLabel("Show", { exact: true }).selectOption("all");
    expect(await cards.count()).toBe(3);

    await bob.getByRole("button", { name: "Release this answer" }).click();
    await page.getByText("1 of 3 released").waitFor({ timeout: 15_000 });
    expect(await bob.locator(".release-row").textContent()).toMatch(/Final grade 7 of 10 \(your grade\)\. Released .+\./);
    expect(await bob.getByRole("button", { name: "Withdraw release" }).count()).toBe(1);
    expect(dialogs).toEqual([]); // a graded answer is released without a warning
    await shot(page, "release-01-one-released");

    // only Bob's receipt shows a grade, and the feedback as the teacher edited it, not the judge's;
    // the other two are still being reviewed and show no feedback, though the judge wrote them some
    const bobReceipt = await openReceipt(receipts.bob);
    expect(bobReceipt.text).toContain("7 of 10 points");
    expect(bobReceipt.feedback).toBe(note);
    expect(bobReceipt.text).not.toContain(original);
    for (const [other, text] of [
      [receipts.ada, texts.ada],
      [receipts.cy, texts.cy],
    ]) {
      const receipt = await openReceipt(other);
      expect(receipt.text).toContain(REVIEWING);
      expect(receipt.text).not.toMatch(/of 10 points/);
      expect(receipt.feedback).toBeNull();
      expect(receipt.text).not.toContain(judgeFeedback(text).text);
      expect(receipt.text).not.toMatch(/quality \d+ of 10/);
    }

    // "Release all" warns about the two flagged answers nobody graded; dismissed, nothing is released
    await page.getByRole("button", { name: "Release all" }).click();
    await expect.poll(() => dialogs.length).toBe(1);
    expect(dialogs[0]).toBe(
      "2 answers you are releasing still have review reasons and no grade of yours: their students see the judge's or the calibrated grade. Release anyway?",
    );
    // confirm() blocks the page: once this later click is answered, the dismissed release has returned
    await page.getByRole("button", { name: "Release every reviewed answer" }).click();
    await page.getByText("No reviewed answer is waiting").waitFor();
    expect(await page.locator("#release-count").textContent()).toBe("1 of 3 released");
    expect(await releasedIds(evaluationId, key)).toHaveLength(1);

    // confirmed, every answer is released, and the page shows each one's release
    confirmIt = true;
    await page.getByRole("button", { name: "Release all" }).click();
    await page.getByText("3 of 3 released").waitFor({ timeout: 15_000 });
    expect(dialogs).toHaveLength(2);
    expect(await page.locator(".release-row .released").count()).toBe(3);
    expect(await receiptResult(receipts.ada)).toMatch(/of 10 points/);

    // a withdrawn release hides the grade again
    await bob.getByRole("button", { name: "Withdraw release" }).click();
    await page.getByText("2 of 3 released").waitFor({ timeout: 15_000 });
    expect(await bob.getByRole("button", { name: "Release this answer" }).count()).toBe(1);
    expect(await receiptResult(receipts.bob)).toContain(REVIEWING);
    await shot(page, "release-02-withdrawn");
    await page.close();
    // the whole path (three submissions, a grading, seven receipt loads) takes about 12 s alone: room for a shared machine
  }, 60_000);

  it("“Release every reviewed answer” releases the graded ones only, without a warning", async () => {
    const key = await newKey("release-reviewed");
    // without debiasing the first-round losers are judged once: flagged answers the warning would name
    const created = await api("POST", "/v1/evaluations", key, {
      question: "What is a queue?",
      maxScore: 10,
      debias: false,
      answers: [2, 4, 6, 8].map((q, i) => ({ id: `q${i + 1}`, text: `Answer ${i + 1} q=${q}` })),
    });
    const id = created.json.id;
    await until("the evaluation completed", async () => (await api("GET", `/v1/evaluations/${id}`, key)).json.status === "completed");
    for (const [answerId, score] of [
      ["q1", 3],
      ["q2", 4],
    ] as const)
      expect((await api("PUT", `/v1/evaluations/${id}/answers/${answerId}/grade`, key, { score })).status).toBe(200);
    const page = await withKey(key);
    const dialogs: string[] = [];
    page.on("dialog", (d: Dialog) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.goto(`${service()}/review?id=${id}`);
    await page.getByText("0 of 4 released").waitFor();
    await page.getByRole("button", { name: "Release every reviewed answer" }).click();
    await page.getByText("2 of 4 released").waitFor({ timeout: 15_000 });
    expect((await releasedIds(id, key)).sort()).toEqual(["q1", "q2"]);
    expect(dialogs).toEqual([]);
    // the filter shows the two reviewed answers, both released
    await page.getByLabel("Show", { exact: true }).selectOption("reviewed");
    expect(await page.locator("#answers li .release-row .released").count()).toBe(2);
    expect(await page.locator("#answers li").count()).toBe(2);
    await page.close();
  });
});
