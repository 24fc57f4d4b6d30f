import type { TestProject } from "vitest/node";
import { docFiles, readDoc } from "../support/docs";
import { startTestJudge } from "../support/judge-server";
import { startWebhookReceiver } from "../support/webhook-receiver";

declare module "vitest" {
  export interface ProvidedContext {
    judgePort: number;
    receiverPort: number;
    /** The README and docs/, for the test that replays their examples (workerd has no access to the project's files). */
    docs: string;
  }
}

// Runs in Node before the workerd tests: the judge they call and the webhook receiver they deliver to
// are real HTTP servers on 127.0.0.1.
export default async function setup(project: TestProject) {
  const judge = await startTestJudge();
  const receiver = await startWebhookReceiver();
  project.provide("judgePort", judge.port);
  project.provide("receiverPort", receiver.port);
  project.provide("docs", docFiles().map(readDoc).join("\n"));
  return async () => {
    await judge.close();
    await receiver.close();
  };
}
