import http from "node:http";
import type { AddressInfo } from "node:net";
import packagedChromium from "@sparticuz/chromium";
import type { TestProject } from "vitest/node";
import { createTestHarness } from "wrangler";
import { startTestJudge } from "../support/judge-server";
import { startLtiPlatform, toolKeys } from "../support/lti-platform";

declare module "vitest" {
  export interface ProvidedContext {
    serviceUrl: string;
    otherSiteUrl: string;
    judgeUrl: string;
    chromiumPath: string;
    /** The test LMS (test/support/lti-platform.ts): `${ltiPlatformUrl}/<tag>/...`. */
    ltiPlatformUrl: string;
  }
}

export const ADMIN = "browser-admin-token";

/**
 * Runs in Node before the browser tests: the whole service as `wrangler dev` runs it (Worker, assets,
 * Durable Objects, local D1 with the migrations applied), the real test judge, a test LMS, and a second HTTP
 * server on another port, a site of another origin that embeds the collecting form. The Chromium that
 * comes with `npm install` (@sparticuz/chromium) is unpacked here, once: test files that each unpacked it
 * would race on the same file in the temporary directory.
 */
export default async function setup(project: TestProject) {
  const chromiumPath = await packagedChromium.executablePath();
  const judge = await startTestJudge();
  // a test LMS on 127.0.0.1, and the tool's keys: the LTI tests launch the service from it
  const lms = await startLtiPlatform();
  const tool = await toolKeys();
  const service = createTestHarness({
    workers: [
      {
        configPath: "./wrangler.toml",
        vars: {
          JUDGE_BASE_URL: `http://127.0.0.1:${judge.port}/v1`,
          JUDGE_MODEL: "test-judge",
          JUDGE_TIMEOUT_MS: "10000",
          JUDGE_RETRY_BASE_MS: "20",
          // a judge that is down fails a test evaluation within a second
          JUDGE_RETRY_CAP_MS: "100",
          JUDGE_DEADLINE_MS: "500",
          // the test LMS's URLs are http on 127.0.0.1, which registration refuses otherwise
          ALLOW_INSECURE_WEBHOOKS: "true",
          // a score the test LMS refuses once is posted again within a second (the default waits 30 s)
          WEBHOOK_RETRY_BASE_MS: "100",
          WEBHOOK_RETRY_CAP_MS: "500",
        },
        secrets: { ADMIN_TOKEN: ADMIN, LTI_PRIVATE_KEYS: tool.json },
      },
    ],
  });
  const { url } = await service.listen();
  await service.getWorker().applyD1Migrations("DB");
  const other = await startOtherSite();
  project.provide("serviceUrl", url.origin);
  project.provide("otherSiteUrl", `http://127.0.0.1:${(other.address() as AddressInfo).port}`);
  project.provide("judgeUrl", `http://127.0.0.1:${judge.port}`);
  project.provide("chromiumPath", chromiumPath);
  project.provide("ltiPlatformUrl", `http://127.0.0.1:${lms.port}`);
  return async () => {
    other.closeAllConnections();
    await new Promise((resolve) => other.close(resolve));
    await service.close();
    await judge.close();
    await lms.close();
  };
}

/** A page on another origin: `/page?embed=<html>` renders a little site with the given snippet in it. */
async function startOtherSite(): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (url.pathname !== "/page") {
      res.writeHead(404).end();
      return;
    }
    const snippet = url.searchParams.get("embed") ?? "";
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Course blog</title><style>body{font-family:Georgia,serif;max-width:40rem;margin:2rem auto;padding:0 1rem;background:#fffdf5}</style></head>
<body><h1>Weekly question</h1><p>Answer this week's question below; the best answers are ranked when it closes.</p>
${snippet}
<footer><p>Another site, another origin.</p></footer></body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return server;
}
