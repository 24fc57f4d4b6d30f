import { env } from "cloudflare:workers";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import type { App } from "../../src/api/context";
import { declarationsOf } from "../../src/api/route";
import { apiRouters } from "../../src/api/routers";
import { newKey } from "./helpers";

describe("a route checks its own auth", () => {
  it("answers 401 without its key or admin token wherever its router is mounted", async () => {
    const key = await newKey(`route-auth-${crypto.randomUUID().slice(0, 8)}`);
    let checked = 0;
    for (const [prefix, router] of apiRouters) {
      // mounted on its own, at a prefix no other router shares: nothing else's middleware covers it
      const elsewhere = new Hono<App>().route("/elsewhere", router);
      for (const declaration of declarationsOf(router).filter((d) => d.auth !== "none")) {
        const path = `/elsewhere${declaration.path === "/" ? "" : declaration.path}`.replace(/:\w+/g, "x_nothing");
        const method = declaration.method.toUpperCase();
        // the admin token's routes refuse a tenant's key too
        for (const bearer of declaration.auth === "admin" ? [undefined, key] : [undefined, "kj_not-a-key"]) {
          const headers: Record<string, string> = { "content-type": "application/json" };
          if (bearer) headers.authorization = `Bearer ${bearer}`;
          const r = await elsewhere.request(path, { method, headers, body: method === "GET" ? undefined : "{}" }, env);
          expect(r.status, `${method} ${prefix}${declaration.path} at /elsewhere, ${bearer ?? "no key"}`).toBe(401);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(40);
  });
});
