import fs from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, launch, newKey, releaseJudge, service, shot } from "./browser";
import { until } from "../support/poll";

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

async function completedEvaluation(key: string, body: Record<string, unknown>): Promise<string> {
  const created = await api("POST", "/v1/evaluations", key, body);
  expect(created.status).toBe(202);
  await until(
    "the evaluation completed",
    async () => (await api("GET", `/v1/evaluations/${created.json.id}`, key)).json.status === "completed",
    20_000,
  );
  return created.json.id;
}

/** A page of the service with `key` saved, as the grade page saves it. */
async function withKey(key: string, width = 1100): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  await page.goto(service());
  await page.evaluate((k) => {
    localStorage.setItem("knockout-judge.key", k);
    localStorage.setItem("knockout-judge.keys", JSON.stringify([{ name: "course", key: k }]));
  }, key);
  return page;
}

/** Opens the grade page on an evaluation (#id): a new load, since only a load starts watching it. */
async function openEvaluation(page: Page, id: string): Promise<void> {
  await page.goto(`${service()}/#${id}`);
  await page.reload();
}

const focused = (page: Page) => page.evaluate<string>("document.activeElement?.id ?? ''");

describe("the review page", () => {
  it("lists the answers to look at first; a teacher grades three by keyboard and sees the agreement", async () => {
    const key = await newKey("review-teacher");
    const id = await completedEvaluation(key, {
      question: "What is a stack?",
      maxScore: 10,
      debias: false,
      seed: 2,
      answers: [2, 4, 6, 8, 5].map((q, i) => ({ id: `s${i + 1}`, text: `Answer ${i + 1}: q=${q}\nsecond line` })),
    });
    const page = await withKey(key);
    await page.goto(`${service()}/review?id=${id}`);
    await page.locator("#answers li").first().waitFor();
    const cards = page.locator("#answers li");
    expect(await cards.count()).toBe(5);
    // without debiasing, the first-round losers are judged once: they come first, with their reason
    const first = await cards.first().textContent();
    expect(first).toContain("judged only once");
    expect(await page.evaluate<string>("getComputedStyle(document.querySelector('#answers li .answer-text')).whiteSpace")).toBe("pre-wrap");
    expect(await page.locator("#agreement").textContent()).toContain("0 of 5 answers graded by you");

    // keyboard only: the first grade field, a grade, Enter; the focus moves to the next answer's
    await page.locator("#grade-0").focus();
    for (const [i, grade] of ["3", "5", "7"].entries()) {
      await page.keyboard.type(grade);
      await page.keyboard.press("Enter");
      await expect.poll(() => focused(page), { timeout: 15_000 }).toBe(`grade-${i + 1}`);
    }
    await expect.poll(() => page.locator("#agreement").textContent(), { timeout: 15_000 }).toContain("3 of 5 answers graded by you");
    expect(await page.locator("#agreement").textContent()).toMatch(/Agreement with the judge \(n = 3\): Pearson/);
    expect(await page.locator("#agreement").textContent()).toContain("Calibrated scores from 3 grades");
    // Alt+Up goes back an answer
    await page.keyboard.press("Alt+ArrowUp");
    expect(await focused(page)).toBe("grade-2");
    await shot(page, "review-01-three-graded");

    // what the page saved is what the service has
    const result = (await api("GET", `/v1/evaluations/${id}`, key)).json;
    const order = (await cards.evaluateAll((els) =>
      els.map((e) => (e as unknown as { dataset: Record<string, string> }).dataset.id),
    )) as string[];
    const teacher = new Map(result.answers.map((a: any) => [a.id, a.teacherScore]));
    expect(order.slice(0, 3).map((a) => teacher.get(a))).toEqual([3, 5, 7]);
    expect(result.agreement.n).toBe(3);
    const csv = await page.locator("#csv").getAttribute("href");
    expect(csv).toMatch(/^blob:/);
    await page.close();
  });
});

describe("the review page's feedback for the students", () => {
  it("shows the judge's feedback in a box the teacher edits; the edit is saved, kept as text, and shown as theirs", async () => {
    const key = await newKey("review-feedback");
    const id = await completedEvaluation(key, {
      question: "What is a stack?",
      feedback: "judge",
      answers: [3, 7].map((q, i) => ({ id: `s${i + 1}`, text: `Answer ${i + 1}: q=${q}` })),
    });
    const page = await withKey(key);
    await page.goto(`${service()}/review?id=${id}`);
    const box = page.getByLabel("Feedback for the student of s2 (written by the judge)");
    await box.waitFor();
    expect(await box.inputValue()).toBe("Your answer is at quality 7 of 10. Say more about the main point of the question.");

    const edited = "Good: LIFO. <b>Add</b> an example.";
    await box.fill(edited);
    await page.locator('li[data-id="s2"]').getByRole("button", { name: "Save feedback" }).click();
    await page.locator('li[data-id="s2"]').getByText("Feedback saved.").waitFor();
    const s2 = (await api("GET", `/v1/evaluations/${id}`, key)).json.answers.find((a: { id: string }) => a.id === "s2");
    expect(s2.feedback).toMatchObject({ text: edited, from: "teacher" });
    expect(await page.locator("#answers b").count()).toBe(0);

    await page.reload();
    const again = page.getByLabel("Feedback for the student of s2 (edited by you)");
    expect(await again.inputValue()).toBe(edited);
    expect((await api("GET", `/v1/evaluations/${id}/answers/s2/feedback/history`, key)).json.data).toHaveLength(2);
    await page.close();
  });
});

describe("fixes found by grading as a teacher would", () => {
  it("a reload mid-grading: the finished ranking and its CSV have the texts, from the service", async () => {
    const key = await newKey("reload-teacher");
    const tag = `reload-${Date.now()}`;
    const created = await api("POST", "/v1/evaluations", key, {
      question: `Q [tag:${tag}] [hold-after:2]`,
      answers: [3, 7, 5].map((q, i) => ({ id: `r${i + 1}`, text: `Reloaded answer ${i + 1} q=${q}` })),
    });
    const page = await withKey(key);
    await openEvaluation(page, created.json.id);
    await page.getByText(/Judging: \d of \d judge calls done/).waitFor();
    await page.reload();
    await page.getByText(/Judging: \d of \d judge calls done/).waitFor();
    await releaseJudge(tag);
    await page.locator("#results").waitFor();
    const texts = await page.locator("table.ranking td.text").allTextContents();
    expect(texts.sort()).toEqual(["Reloaded answer 1 q=3", "Reloaded answer 2 q=7", "Reloaded answer 3 q=5"]);
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download CSV" }).click()]);
    const csv = fs.readFileSync((await download.path())!, "utf8");
    for (const text of texts) expect(csv).toContain(text);
    // the live count is shown, not announced: the live region said "Judging…" and then "Done"
    expect(await page.locator("#live-status").textContent()).toBe("Done: every match is decided.");
    expect(await page.locator("#live-count").getAttribute("aria-live")).toBeNull();
    // a link to the review page comes with the results
    expect(await page.getByRole("link", { name: "Review and grade the answers" }).getAttribute("href")).toBe(
      `/review?id=${created.json.id}`,
    );
    await page.close();
  });

  it("the bracket shows the judge's words in a match's card while the judge writes them", async () => {
    const key = await newKey("words-watcher");
    const created = await api("POST", "/v1/evaluations", key, {
      question: "Explain a stack. [drip-ms:15]",
      debias: false,
      judge: { scoreFrom: "text" },
      answers: [3, 7].map((q, i) => ({ id: `w${i + 1}`, text: `q=${q}` })),
    });
    const page = await withKey(key);
    await openEvaluation(page, created.json.id);
    const words = page.locator("#bracket .match .judge-words");
    await words.first().waitFor();
    expect(await words.first().textContent()).toMatch(/^Expl/);
    await shot(page, "grade-judge-words");
    await page.locator("#results").waitFor();
    expect(await words.count()).toBe(0); // decided: the scores replace the words
    await page.close();
  });

  it("each method in its own words; the champion explained beside rank 1", async () => {
    const key = await newKey("words-teacher");
    const individual = await completedEvaluation(key, {
      question: "Q",
      method: "individual",
      answers: [3, 7].map((q, i) => ({ id: `i${i + 1}`, text: `q=${q}` })),
    });
    const page = await withKey(key);
    await openEvaluation(page, individual);
    await page.locator("#results").waitFor();
    expect(await page.locator("#live-status").textContent()).toBe("Done: every answer is graded.");
    expect(await page.locator("table.ranking thead").textContent()).not.toContain("Out in");
    expect(await page.locator(".champion").textContent()).toBe("Highest score: i2");
    // no knockout words ("Final grade", the grade a student gets, is not the bracket's final)
    expect(await page.locator("#results").textContent()).not.toMatch(/\bwon\b|Final(?! grade)|advances/);

    const knockout = await completedEvaluation(key, {
      question: "Q",
      seed: 1,
      answers: [2, 8, 5, 6, 4].map((q, i) => ({ id: `k${i + 1}`, text: `q=${q}` })),
    });
    await openEvaluation(page, knockout);
    await page.locator("#results").waitFor();
    expect(await page.locator(".champion").textContent()).toContain("the tournament's champion");
    const outIn = await page.locator("table.ranking tbody tr td.out").allTextContents();
    expect(outIn).toContain("champion");
    expect(outIn.some((t) => /^Round \d$|^Semi-finals$|^Final$/.test(t))).toBe(true);
    // the match list names rounds as the bracket does
    const titles = await page.locator("details[data-match] summary").allTextContents();
    expect(titles.some((t) => t.startsWith("Final:"))).toBe(true);
    expect(await page.locator("#bracket").getByRole("region", { name: "Final", exact: true }).count()).toBe(1);
    await page.close();
  });

  it("a refused request names the form's label and puts the focus on the field; nothing is wider than a phone; a favicon", async () => {
    const key = await newKey("form-teacher");
    const page = await withKey(key, 390);
    await page.reload();
    await page.getByLabel("Question", { exact: true }).fill("What is a queue?");
    await page.getByLabel("Answer 1", { exact: true }).fill(`${"x".repeat(300)} q=3`);
    await page.getByLabel("Answer 2", { exact: true }).fill("q=5");
    expect(await page.evaluate<number>("document.documentElement.scrollWidth")).toBeLessThanOrEqual(390);
    // before "Grade": what it would take, from the service's dry run (a debiased knockout of 2: 2 calls)
    await page
      .locator("#estimate")
      .getByText(/Grading takes about 2 judge calls, \d+ tokens and/)
      .waitFor();
    await page.getByLabel("Points").fill("0");
    await page.getByRole("button", { name: "Grade 2 answers" }).click();
    await page.locator("#form-error").getByText("Please fix: Points:").waitFor();
    expect(await page.locator("#form-error").textContent()).not.toContain("maxScore");
    expect(await focused(page)).toBe("max-score");
    await shot(page, "form-01-phone-error");

    const icon = await fetch(`${service()}/favicon.ico`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get("content-type")).toMatch(/icon/);
    await page.close();
  });

  it("says where a key comes from, and keeps several keys to switch between", async () => {
    const page = await browser.newPage({ viewport: { width: 1000, height: 900 } });
    await page.goto(service());
    await page.getByText("No key yet?").click();
    expect(await page.locator("#key-help").textContent()).toMatch(/POST .*\/v1\/keys[\s\S]*npm start/);
    const [a, b] = [await newKey("course-a"), await newKey("course-b")];
    await page.getByLabel("Your API key").fill(a);
    await page.getByLabel("Name it").fill("Algorithms");
    await page.getByRole("button", { name: "Save key" }).click();
    await page.getByRole("button", { name: "Add another key" }).click();
    await page.getByLabel("Your API key").fill(b);
    await page.getByLabel("Name it").fill("Databases");
    await page.getByRole("button", { name: "Save key" }).click();
    const choice = page.getByLabel("Key in use");
    expect(await choice.locator("option").allTextContents()).toEqual(["Algorithms", "Databases"]);
    await choice.selectOption({ label: "Algorithms" });
    expect(await page.evaluate<string>("localStorage.getItem('knockout-judge.key')")).toBe(a);
    await page.close();
  });
});

describe("the collections page", () => {
  it("creates a collection, embeds it on another site, watches three answers arrive, closes it and opens the review", async () => {
    const key = await newKey("collections-teacher");
    const page = await withKey(key, 1100);
    await page.getByRole("link", { name: /^Collections/ }).click();
    await page.getByText("No collections yet").waitFor();
    const tag = `page-col-${Date.now()}`;
    await page.getByLabel("Question", { exact: true }).fill(`What does a stack do? [tag:${tag}]`);
    await page.getByLabel("Sites that may show the form").fill(inject("otherSiteUrl"));
    await page.getByRole("button", { name: "Create the collection" }).click();
    await page.getByText("Open: taking answers.").waitFor();
    expect(await page.locator("#list tbody tr").count()).toBe(1);
    const snippet = await page.getByLabel("Script embed").inputValue();
    expect(snippet).toContain("data-collection=");
    await shot(page, "collections-01-created");

    const site = await browser.newPage({ viewport: { width: 900, height: 800 } });
    await site.goto(`${inject("otherSiteUrl")}/page?embed=${encodeURIComponent(snippet)}`);
    for (const [i, text] of ["Last in, first out. q=8", "A list. q=2", "Push and pop on top. q=6"].entries()) {
      await site.getByLabel("Your answer").fill(text);
      await site.getByRole("button", { name: "Send my answer" }).click();
      await expect.poll(() => site.getByRole("link", { name: /\/receipt\/rc_/ }).count(), { timeout: 15_000 }).toBe(i + 1);
    }
    // live, without reloading the owner's page
    await page.getByText("3 answers so far.").waitFor();
    expect(await page.locator("#arrived li").count()).toBe(3);
    await shot(page, "collections-02-three-arrived");

    await page.getByRole("button", { name: "Close it now and grade" }).click();
    await page.getByRole("link", { name: "Review and grade the answers" }).waitFor();
    expect(await page.locator("#one-state").textContent()).toBe("Closed and graded.");
    await page.getByRole("link", { name: "Review and grade the answers" }).click();
    await page.locator("#answers li").first().waitFor();
    expect(await page.locator("#answers li").count()).toBe(3);
    await site.close();
    await page.close();
  });
});

describe("the API docs", () => {
  it("renders /openapi.json at /docs from the service's own assets, under the pages' strict policy", async () => {
    const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    const refused: string[] = [];
    page.on("console", (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) refused.push(m.text());
    });
    const response = await page.goto(`${service()}/docs`);
    expect(response!.headers()["content-security-policy"]).toContain("script-src 'self'");
    await page.getByText("/v1/evaluations/{id}/answers/{answerId}/grade").first().waitFor();
    expect(await page.getByText("Grade the answers to one question").count()).toBeGreaterThan(0);
    expect(refused).toEqual([]);
    await shot(page, "docs-01");
    await page.close();
  });
});
