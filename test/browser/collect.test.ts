import type { Browser, FrameLocator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import { launch, newKey, service, shot } from "./browser";
import { until } from "../support/poll";

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

async function owner(method: string, path: string, key: string, body?: unknown) {
  const r = await fetch(`${service()}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: r.status, json: (await r.json()) as any };
}

const otherSitePage = (snippet: string) => `${inject("otherSiteUrl")}/page?embed=${encodeURIComponent(snippet)}`;

/** Fills and sends the form (in the page's shadow root or in the iframe); returns the receipt link. */
async function answer(form: Page | FrameLocator, text: string, name: string): Promise<string> {
  await form.getByLabel("Your answer").fill(text);
  await form.getByLabel("Your name").fill(name);
  // this visit's receipts stay listed: the newest is the last. Counted before the click: a quick reply
  // can add the new link before a count taken after it, which then waits for one more link for ever
  const links = form.getByRole("link", { name: /\/receipt\/rc_/ });
  const before = await links.count();
  await form.getByRole("button", { name: "Send my answer" }).click();
  // each submission is a request to the service: on a loaded machine it takes more than expect.poll's second
  await expect.poll(() => links.count(), { timeout: 15_000 }).toBe(before + 1);
  return (await links.last().getAttribute("href"))!;
}

describe("the embeddable collecting form", () => {
  it("takes three answers on another site, closes, grades, and each receipt shows its own result only", async () => {
    const key = await newKey("site-owner");
    const question = `Explain in one sentence what a stack is. [tag:collect-${Date.now()}]`;
    const created = await owner("POST", "/v1/collections", key, {
      question,
      maxScore: 10,
      allowedOrigins: [inject("otherSiteUrl")],
      closing: { maxAnswers: 100 },
      // grades shown as soon as they are in, with ranks: the release workflow has a test of its own
      release: "auto",
      showRank: true,
    });
    expect(created.status).toBe(201);
    const { id, embed } = created.json;

    // a page of another origin with the script embed, and the iframe embed under it
    const page = await browser.newPage({ viewport: { width: 1000, height: 1100 } });
    await page.goto(otherSitePage(`${embed.script}<h2>Or in a frame</h2>${embed.iframe}`));
    await page.getByRole("button", { name: "Send my answer" }).first().waitFor();
    const frame = page.frameLocator("iframe");
    await frame.getByRole("button", { name: "Send my answer" }).waitFor();
    await shot(page, "collect-01-embedded-forms");

    const texts = [
      "A stack is LIFO:\nthe last item pushed is the first popped. q=8",
      "A stack is a kind of list. q=3",
      "Last in, first out: push on top, pop from the top. q=6",
    ];
    const scriptForm = page.locator(".knockout-judge-form").first();
    expect(await scriptForm.evaluate((e) => e.shadowRoot !== null)).toBe(true);
    const receipts = [await answer(page, texts[0], "Ada")];
    await shot(page, "collect-02-submitted");
    // Enter again on the button (where the focus stays): the emptied form asks for an answer, and the receipt link stays
    await page.getByRole("button", { name: "Send my answer" }).first().press("Enter");
    await page.getByText("Write an answer first.").first().waitFor();
    expect(await page.getByRole("link", { name: receipts[0] }).first().isVisible()).toBe(true);
    receipts.push(await answer(page, texts[1], "Bob"));
    receipts.push(await answer(frame, texts[2], "Cy"));
    await shot(page, "collect-03-three-submitted");

    // before grading, a receipt says so
    const early = await browser.newPage({ viewport: { width: 390, height: 760 } });
    await early.goto(receipts[0]);
    await early.getByText("still collecting answers").waitFor();
    await shot(early, "collect-04-receipt-collecting");
    await early.close();

    const closed = await owner("POST", `/v1/collections/${id}/close`, key);
    expect(closed.json).toMatchObject({ status: "closed", answerCount: 3 });
    await page.reload();
    await page.getByText("This question is closed").first().waitFor();
    expect(await page.getByRole("button", { name: "Send my answer" }).first().isDisabled()).toBe(true);
    await shot(page, "collect-05-closed");

    // the knockout runs by itself; the owner sees it finish
    const graded = await until("the collection graded", async () => {
      const r = await owner("GET", `/v1/collections/${id}`, key);
      return r.json.evaluation?.status === "completed" ? r : null;
    });
    expect(graded.json.evaluation.status).toBe("completed");

    for (const [i, url] of receipts.entries()) {
      const receipt = await browser.newPage({ viewport: { width: 390, height: 760 } });
      await receipt.goto(url);
      await receipt.getByText(/^Rank \d of 3 answers\.$/).waitFor();
      const mine = graded.json.answers.find((a: any) => a.text === texts[i]);
      const body = (await receipt.locator("body").textContent())!;
      expect(body).toContain(texts[i]);
      // an answer written on several lines is shown on several lines
      if (texts[i].includes("\n"))
        expect(await receipt.evaluate<string>("getComputedStyle(document.querySelector('#answer')).whiteSpace")).toBe("pre-wrap");
      expect(body).toContain(`Rank ${mine.rank} of 3 answers.`);
      expect(body).toMatch(new RegExp(`${String(mine.finalScore).replace(".", "\\.")} of 10 points`));
      for (const [j, other] of texts.entries()) if (j !== i) expect(body).not.toContain(other);
      await shot(receipt, `collect-06-receipt-${i + 1}`);
      await receipt.close();
    }
    await page.close();
  });

  it("refuses to work on a site that is not allowed, and says so", async () => {
    const key = await newKey("site-owner");
    const created = await owner("POST", "/v1/collections", key, {
      question: "Not for this site",
      allowedOrigins: ["https://elsewhere.example"],
    });
    const page = await browser.newPage({ viewport: { width: 800, height: 600 } });
    await page.goto(otherSitePage(created.json.embed.script));
    // the refusal is readable by the page (it carries CORS), so the form says why, not "could not be loaded"
    await page.getByText("This form is not allowed on this site").waitFor();
    await shot(page, "collect-07-wrong-origin");
    await page.close();
  });
});
