import fs from "node:fs";
import path from "node:path";
import packagedChromium from "@sparticuz/chromium";
import { chromium, type Browser, type Locator, type Page } from "playwright-core";
import { inject } from "vitest";

export const SHOTS = path.resolve("test-output/browser");

/**
 * @sparticuz/chromium's flags are made for AWS Lambda; two of them break these tests. With
 * `--single-process` the browser is gone once a test has closed its pages ("Target page, context or
 * browser has been closed"). `--disable-web-security` turns off the same-origin policy and CORS, which
 * the collecting form on another origin depends on: its tests time out, and they would no longer see
 * what a visitor's browser does.
 */
const UNFIT_FLAGS = new Set(["--single-process", "--disable-web-security"]);

export async function launch(): Promise<Browser> {
  fs.mkdirSync(SHOTS, { recursive: true });
  const args = packagedChromium.args.filter((arg) => !UNFIT_FLAGS.has(arg));
  return chromium.launch({ executablePath: inject("chromiumPath"), args, headless: true });
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

/** A request to the service with a tenant's key: its status and parsed JSON. */
export async function api(method: string, path: string, key: string, body?: unknown) {
  const r = await fetch(`${service()}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: r.status, json: (await r.json()) as any };
}

export async function releaseJudge(tag: string): Promise<void> {
  await fetch(`${inject("judgeUrl")}/release?tag=${encodeURIComponent(tag)}`, { method: "POST" });
}

/** A screenshot of one part of the page, e.g. the bracket. */
export async function shotOf(part: Locator, name: string): Promise<void> {
  await part.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}
