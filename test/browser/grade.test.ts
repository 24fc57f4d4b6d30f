import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launch, newKey, releaseJudge, service, shot, shotOf, SHOTS } from "./browser";
// @ts-expect-error plain JS module of the web front
import { formatScore } from "../../public/js/score-format.js";

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const qualities = [2, 9, 4, 6, 1, 8, 5];

async function fillForm(page: Page, question: string, qs: number[]) {
  await page.getByLabel("Question", { exact: true }).fill(question);
  await page.getByLabel("Reference answer").fill("A stack is a last-in, first-out (LIFO) list: push adds on top, pop takes from the top.");
  for (let i = 2; i < qs.length; i++) await page.getByRole("button", { name: "Add an answer" }).click();
  for (const [i, q] of qs.entries()) {
    await page
      .getByLabel(`Answer ${i + 1}`, { exact: true })
      .fill(`Student ${i + 1} (q=${q}): a stack keeps items so the last pushed is the first popped.`);
  }
}

describe("the grade page", () => {
  it("grades a 7-answer question: the bracket fills in live, then the ranking, chart and matches appear", async () => {
    const key = await newKey("teacher");
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const apiCalls: string[] = [];
    page.on("request", (r) => {
      const p = new URL(r.url()).pathname;
      if (p.startsWith("/v1/")) apiCalls.push(`${r.method()} ${p}`);
    });
    const home = await page.goto(service());
    // the static pages may not be framed by other sites and run only this origin's scripts
    expect(home!.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect((await fetch(`${service()}/_headers`)).status).not.toBe(200);
    await shot(page, "grade-01-empty");

    await page.getByLabel("Your API key").fill(key);
    await page.getByRole("button", { name: "Save key" }).click();
    await expect.poll(() => page.getByText("A key is saved in this browser").isVisible()).toBe(true);
    expect(await page.getByLabel("Your API key").isVisible()).toBe(false); // entered once
    // under the key, how the judge is doing (GET /v1/judges): a pool of one, up, the default cap of 16
    await expect
      .poll(() => page.locator("#judges").textContent(), { timeout: 15_000 })
      .toMatch(/^Judge up \(test-judge\) · \d+ of 16 calls in flight/);
    const tag = `grade-${Date.now()}`;
    // the judge answers four calls, then holds the rest until the test releases it: the page is caught mid-tournament
    await fillForm(page, `What is a stack? [tag:${tag}] [hold-after:4]`, qualities);
    await shot(page, "grade-02-filled");
    await page.getByRole("button", { name: "Grade 7 answers" }).click();

    await page.getByText("Judging: 4 of 12 judge calls done").waitFor();
    const live = page.locator("#bracket");
    expect(await live.getByRole("region").count()).toBe(3); // round 1, semi-finals, final
    expect(await live.locator(".match.decided").count()).toBeGreaterThanOrEqual(1);
    // bracket pairing (the default) may already have made a semi-final whose feeders are decided, but
    // the final cannot exist yet: it waits for both semi-finals
    expect(await live.locator(".match.waiting").count()).toBeGreaterThanOrEqual(1);
    expect(await live.getByRole("region", { name: "Final", exact: true }).locator(".match.waiting").count()).toBe(1);
    await shotOf(page.locator("#live"), "grade-03-bracket-live");

    await releaseJudge(tag);
    await page.getByText("Done: every match is decided.").waitFor();
    expect(await live.locator(".match.decided").count()).toBe(6);
    expect(await live.locator(".match.waiting").count()).toBe(0);
    const final = live.getByRole("region", { name: "Final", exact: true });
    expect(await final.locator(".winner .id").textContent()).toBe("a2"); // q=9
    await page.locator("#results").waitFor();
    await shot(page, "grade-04-done");
    await shotOf(page.locator("#live"), "grade-04-bracket-complete");

    // the ranking: best first, with its texts, the chart and the downloads
    const rows = page.locator("table.ranking tbody tr");
    expect(await rows.count()).toBe(7);
    expect(await rows.first().getAttribute("data-id")).toBe("a2");
    expect(await rows.first().locator("td.text").textContent()).toContain("q=9");
    expect(await page.locator("svg.chart").getAttribute("aria-label")).toMatch(/^Score distribution: /);
    expect(await page.getByRole("link", { name: "Download CSV" }).getAttribute("download")).toMatch(/\.csv$/);

    // the judge's biases beside the result, each with the anchors' figure (12 debiased calls here)
    const figures = page.locator("table.diagnostics tbody tr");
    expect(await figures.count()).toBe(5);
    expect(await figures.first().textContent()).toMatch(/^The answer shown first wins\d+\.\d% \(\d+ of \d+\).*52\.6% \(FastChat/);

    // each match's two scores and the judge's explanation, one click away
    const firstMatch = page.locator("details[data-match]").first();
    await firstMatch.locator("summary").click();
    expect(await firstMatch.locator("pre").first().textContent()).toMatch(/Explanation: compared the two answers/);
    await firstMatch.scrollIntoViewIfNeeded();
    await shot(page, "grade-05-match-details");

    // no polling: one event stream, and the evaluation read once, when it had ended
    const id = new URL(page.url()).hash.slice(1);
    expect(apiCalls.filter((c) => c === `GET /v1/evaluations/${id}`)).toHaveLength(1);
    expect(apiCalls.filter((c) => c === `GET /v1/evaluations/${id}/events`).length).toBeGreaterThanOrEqual(1);

    // a phone: the bracket scrolls sideways inside its box, the table inside its own
    await page.setViewportSize({ width: 390, height: 844 });
    await page.locator("#live").scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/grade-06-phone-bracket.png` });
    await page.locator("table.ranking").scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/grade-06-phone-ranking.png` });
    expect(await page.evaluate<number>("document.documentElement.scrollWidth")).toBeLessThanOrEqual(390); // no sideways page scroll

    // a read-only share link, opened by someone without a key
    await page.getByRole("button", { name: "Create a read-only share link" }).click();
    await page.getByLabel("Share link").waitFor();
    const url = await page.getByLabel("Share link").inputValue();
    expect(url).toMatch(/\/share\/sh_/);
    const stranger = await browser.newPage({ viewport: { width: 1024, height: 900 } });
    await stranger.goto(url);
    await stranger.getByRole("table").waitFor();
    expect(await stranger.locator("#question").textContent()).toContain("What is a stack?");
    expect(await stranger.locator("table.ranking tbody tr").first().getAttribute("data-id")).toBe("a2");
    // the shared ranking shows each answer's final grade as the API gives it
    const shared = (await (await fetch(`${service()}/v1/shared/${url.split("/share/")[1]}`)).json()) as {
      answers: { id: string; finalScore: number }[];
    };
    const a2 = shared.answers.find((a) => a.id === "a2")!;
    expect(await stranger.locator('table.ranking tr[data-id="a2"] td.final').textContent()).toBe(
      `${formatScore(a2.finalScore)} (the judge's)`,
    );
    expect(await stranger.locator("table.diagnostics").count()).toBe(0); // a link shows grades, not the judge's workings
    await shot(stranger, "grade-07-share");
    // the link's token is no key: it opens nothing else
    const token = url.split("/share/")[1];
    const other = await fetch(`${service()}/v1/evaluations/${id}`, { headers: { authorization: `Bearer ${token}` } });
    expect(other.status).toBe(401);
    await stranger.close();
    await page.close();
  });

  it("says clearly when the key is bad and when the judge is down", async () => {
    const page = await browser.newPage({ viewport: { width: 800, height: 900 } });
    await page.goto(service());
    // every control has a name a screen reader can say
    const unnamed = await page.evaluate<string[]>(
      `[...document.querySelectorAll("input, textarea, select, button")].filter((e) => !e.labels?.length && !e.getAttribute("aria-label") && !e.textContent.trim()).map((e) => e.outerHTML.slice(0, 80))`,
    );
    expect(unnamed).toEqual([]);
    // keyboard only: add an answer box (it takes the focus), type, remove it again
    await page.getByRole("button", { name: "Add an answer" }).focus();
    await page.keyboard.press("Enter");
    expect(await page.evaluate<string>("document.activeElement.id")).toBe("answer-3");
    await page.keyboard.type("typed without a mouse");
    await page.keyboard.press("Tab");
    expect(await page.evaluate<string>("document.activeElement.getAttribute('aria-label')")).toBe("Remove answer 3");
    await page.keyboard.press("Enter");
    expect(await page.locator("#answers li").count()).toBe(2);
    await page.getByLabel("Your API key").fill("kj_not-a-real-key");
    await page.getByRole("button", { name: "Save key" }).click();
    await fillForm(page, "What is a queue?", [3, 5]);
    await page.getByRole("button", { name: "Grade 2 answers" }).click();
    const error = page.locator("#form-error");
    await error.getByText("That API key was not accepted").waitFor();
    expect(await page.getByLabel("Your API key").isVisible()).toBe(true); // asked for again
    expect(await page.getByText("A key is saved in this browser").isVisible()).toBe(false);
    await shot(page, "errors-01-bad-key");

    await page.getByLabel("Your API key").fill(await newKey("teacher"));
    await page.getByRole("button", { name: "Save key" }).click();
    // the answers this time pasted as CSV (the importer is unit-tested; here: it fills the boxes)
    await page.getByText("Paste or upload answers (CSV or JSONL)").click();
    await page
      .getByLabel("Or paste here")
      .fill('id,text\nann,"First in, first out. q=6"\nben,A line at a shop. q=4\ncat,Like a stack. q=1\n');
    await page.getByRole("button", { name: "Use pasted answers" }).click();
    expect(await page.getByLabel("Answer 1 (ann)").inputValue()).toBe("First in, first out. q=6");
    await page.getByLabel("Question", { exact: true }).fill(`What is a queue? [tag:down-${Date.now()}] [fault:503*always]`);
    await page.getByRole("button", { name: "Grade 3 answers" }).click();
    await page.getByText("The evaluation failed: the judge is down or not answering").waitFor();
    await shot(page, "errors-02-judge-down");
    await page.close();
  });

  it("shows each student's feedback live as it arrives, as text: a judge's markup and links show literally", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(service());
    await page.getByLabel("Your API key").fill(await newKey("teacher-feedback"));
    await page.getByRole("button", { name: "Save key" }).click();
    const tag = `feedback-${Date.now()}`;
    // a knockout of 3 (4 calls debiased), then 3 feedback calls: the judge answers 2 of them and holds the last
    await fillForm(page, `What is a stack? [tag:${tag}] [hold-after:6]`, [3, 7, 5]);
    await page.getByLabel("Answer 1", { exact: true }).fill("Student 1 (q=3): it is a pile. [feedback-markup]");
    await page.getByLabel(/^Feedback for each student/).check();
    await page.getByRole("button", { name: "Grade 3 answers" }).click();

    const list = page.locator("#feedback-list");
    await page.getByText("Writing feedback: 2 of 3 students done").waitFor();
    // the count and each feedback are separate events on the stream: the second may land just after
    await expect.poll(() => list.locator("li").count()).toBe(2);
    await shotOf(page.locator("#live"), "grade-05-feedback-live");
    await releaseJudge(tag);
    await page.getByText("Done: every match is decided.").waitFor();
    await expect.poll(() => list.locator("li").count()).toBe(3);

    const markup = '<script>alert("feedback")</script> Read <a href="https://evil.example/">this page</a> and https://evil.example/x.';
    expect(await list.locator('li[data-id="a1"] .feedback-text').textContent()).toBe(markup);
    expect(await list.locator('li[data-id="a2"] .feedback-text').textContent()).toMatch(/^Your answer is at quality 7 of 10\./);
    // text, not elements: nothing the judge wrote became a script or a link, in the live list or the ranking
    await page.locator("#results").waitFor();
    expect(await page.locator("#live script, #live a, #results-body table script, #results-body table a").count()).toBe(0);
    expect(await page.locator('table.ranking tr[data-id="a1"] td.feedback').textContent()).toBe(markup);
    await page.close();
  });
});
