import { Hono } from "hono";
import { erased } from "../contract";
import { eraseTenant } from "../evaluations/tenant-erasure";
import type { App } from "./context";
import { route } from "./route";

/** The admin's erasure of a whole tenant: its keys revoked first, then everything it owns erased. */
export const tenants = new Hono<App>();

route(
  tenants,
  {
    method: "delete",
    path: "/:tenant",
    summary: "Erase a tenant whole: its keys revoked, every evaluation, batch and collection erased",
    tag: "erasure",
    auth: "admin",
    ok: { 200: { description: "the tenant's tombstone: the same answer every time", schema: erased } },
  },
  async (c) => c.json(await eraseTenant(c.env, c.req.param("tenant"))),
);
