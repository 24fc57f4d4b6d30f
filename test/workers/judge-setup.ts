import fs from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { startTestJudge } from "../support/judge-server";
import { startWebhookReceiver } from "../support/webhook-receiver";

declare module "vitest" {
  export interface ProvidedContext {
    judgePort: number;
    receiverPort: number;
    /** README.md, for the test that replays its examples (workerd has no access to the project's files). */
    readme: string;
  }
}

// Runs in Node before the workerd tests: the judge they call and the webhook receiver they deliver to
// are real HTTP servers on 127.0.0.1.
export default async function setup(project: TestProject) {
  const judge = await startTestJudge();
  const receiver = await startWebhookReceiver();
  project.provide("judgePort", judge.port);
  project.provide("receiverPort", receiver.port);
  project.provide("readme", fs.readFileSync(path.join(import.meta.dirname, "../../README.md"), "utf8"));
  return async () => {
    await judge.close();
    await receiver.close();
  };
}
