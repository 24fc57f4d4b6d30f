import type { TestProject } from "vitest/node";
import { startTestJudge } from "../support/judge-server";

declare module "vitest" {
  export interface ProvidedContext {
    judgePort: number;
  }
}

// Runs in Node before the workerd tests: the judge they call is a real HTTP server on 127.0.0.1.
export default async function setup(project: TestProject) {
  const judge = await startTestJudge();
  project.provide("judgePort", judge.port);
  return () => judge.close();
}
