import http from "node:http";
import type { AddressInfo } from "node:net";
import type { TestProject } from "vitest/node";
import { startTestJudge, type TestJudge } from "../support/judge-server";

declare module "vitest" {
  export interface ProvidedContext {
    /** The panel's three judge servers, one model each, and the switch that takes one down and up. */
    panelPorts: { a: number; b: number; c: number; control: number };
  }
}

/**
 * Runs in Node before the panel's tests (issue 30 item 3): three real judge servers on 127.0.0.1, each
 * serving its own model (JUDGE_ENDPOINTS in vitest.config.ts's "panel" project): judge-a, judge-b (a
 * stronger position bias) and judge-c, which grades in reverse (the panel's odd one out). A control
 * server lets the tests in workerd take one down and bring it up: `POST /stop?judge=b`, `POST /start?judge=b`.
 */
export default async function setup(project: TestProject) {
  const judges: Record<string, TestJudge> = {
    a: await startTestJudge({ model: "judge-a" }),
    b: await startTestJudge({ model: "judge-b", bias: 1.5 }),
    c: await startTestJudge({ model: "judge-c", reverse: true }),
  };
  const control = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const judge = judges[url.searchParams.get("judge") ?? ""];
    if (!judge || req.method !== "POST") {
      res.writeHead(404).end();
      return;
    }
    if (url.pathname === "/stop") await judge.stop();
    else if (url.pathname === "/start") await judge.start();
    res.writeHead(200).end("ok");
  });
  await new Promise<void>((resolve) => control.listen(0, "127.0.0.1", resolve));
  project.provide("panelPorts", {
    a: judges.a.port,
    b: judges.b.port,
    c: judges.c.port,
    control: (control.address() as AddressInfo).port,
  });
  return async () => {
    await Promise.all(Object.values(judges).map((j) => j.close().catch(() => {})));
    await new Promise<void>((resolve) => control.close(() => resolve()));
  };
}
