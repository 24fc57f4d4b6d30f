import http from "node:http";
import type { AddressInfo } from "node:net";
import type { TestProject } from "vitest/node";
import { startTestJudge, type TestJudge } from "../support/judge-server";

declare module "vitest" {
  export interface ProvidedContext {
    /** The two judge servers of the pool's tests, and the switch that kills and revives them. */
    poolPorts: { a: number; b: number; control: number };
  }
}

/**
 * Runs in Node before the pool's tests: two real judge servers on 127.0.0.1 (the pool, JUDGE_ENDPOINTS
 * in vitest.config.ts), and a control server the tests in workerd call to take one down (its replies
 * under way broken off, every request a 503: see TestJudge.stop), bring it up again, or make it serve
 * another model:
 * `POST /stop?judge=b`, `POST /start?judge=b`, `POST /serve?judge=b&model=M`.
 */
export default async function setup(project: TestProject) {
  const judges: Record<string, TestJudge> = { a: await startTestJudge(), b: await startTestJudge() };
  const control = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const judge = judges[url.searchParams.get("judge") ?? ""];
    if (!judge || req.method !== "POST") {
      res.writeHead(404).end();
      return;
    }
    if (url.pathname === "/stop") await judge.stop();
    else if (url.pathname === "/start") await judge.start();
    else if (url.pathname === "/serve") judge.serve(url.searchParams.get("model") ?? "test-judge");
    res.writeHead(200).end("ok");
  });
  await new Promise<void>((resolve) => control.listen(0, "127.0.0.1", resolve));
  project.provide("poolPorts", { a: judges.a.port, b: judges.b.port, control: (control.address() as AddressInfo).port });
  return async () => {
    await Promise.all(Object.values(judges).map((j) => j.close().catch(() => {})));
    await new Promise<void>((resolve) => control.close(() => resolve()));
  };
}
