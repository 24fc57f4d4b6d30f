import fs from "node:fs";
import path from "node:path";
import { chromium, type Browser, type Locator, type Page } from "playwright-core";
import { inject } from "vitest";

export const SHOTS = path.resolve("test-output/browser");

export async function launch(): Promise<Browser> {
  fs.mkdirSync(SHOTS, { recursive: true });
  return chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}

export async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

export const service = () => inject("serviceUrl");

/** A fresh API key through the admin route, as an operator would issue one. */
export async function newKey(tenant: string): Promise<string> {
  const r = await fetch(`${service()}/v1/keys`, {
    method: "POST",
    headers: { authorization: "Bearer browser-admin-token", "content-type": "application/json" },
    body: JSON.stringify({ tenant }),
  });
  if (r.status !== 201) throw new Error(`key: ${r.status} ${await r.text()}`);
  return ((await r.json()) as { key: string }).key;
}

export async function releaseJudge(tag: string): Promise<void> {
  await fetch(`${inject("judgeUrl")}/release?tag=${encodeURIComponent(tag)}`, { method: "POST" });
}

/** A screenshot of one part of the page, e.g. the bracket. */
export async function shotOf(part: Locator, name: string): Promise<void> {
  await part.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}
