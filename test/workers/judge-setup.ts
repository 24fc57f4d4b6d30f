import type { TestProject } from "vitest/node";
import { docFiles, readDoc } from "../support/docs";
import { startTestJudge } from "../support/judge-server";
import { startLtiPlatform, toolKeys } from "../support/lti-platform";
import { startWebhookReceiver } from "../support/webhook-receiver";

declare module "vitest" {
  export interface ProvidedContext {
    judgePort: number;
    receiverPort: number;
    /** The test LTI platform (test/support/lti-platform.ts). */
    ltiPlatformPort: number;
    /** The service's LTI_PRIVATE_KEYS, made once per run; the tests look for its private parts where they must not be. */
    ltiToolKeys: string;
    /** The README and docs/, for the test that replays their examples (workerd has no access to the project's files). */
    docs: string;
  }
}

// Runs in Node before the workerd tests: the judge they call, the webhook receiver they deliver to and
// the LTI platform they launch from are real HTTP servers on 127.0.0.1.
export default async function setup(project: TestProject) {
  const judge = await startTestJudge();
  const receiver = await startWebhookReceiver();
  const lti = await startLtiPlatform();
  project.provide("judgePort", judge.port);
  project.provide("receiverPort", receiver.port);
  project.provide("ltiPlatformPort", lti.port);
  project.provide("ltiToolKeys", (await toolKeys()).json);
  project.provide("docs", docFiles().map(readDoc).join("\n"));
  return async () => {
    await judge.close();
    await receiver.close();
    await lti.close();
  };
}
