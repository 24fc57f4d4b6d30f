import { Hono } from "hono";
import { tenantSettings, tenantSettingsBody } from "../contract";
import { withAudit } from "../db/audit";
import { database } from "../db/database";
import { setTenantRetention } from "../db/retention";
import { tenantSettingsView } from "../evaluations/retention";
import type { App } from "./context";
import { route } from "./route";

/** The tenant's own settings: for now its retention, with what the next retention run would erase. */
export const tenantSettingsRoutes = new Hono<App>();

route(
  tenantSettingsRoutes,
  {
    method: "get",
    path: "/settings",
    summary: "The tenant's settings, and what the next retention run would erase",
    tag: "erasure",
    auth: "key",
    // any key of the tenant may learn when its data goes: the answer names ids only, never a person
    scope: "read",
    ok: { 200: { description: "the settings and the next run", schema: tenantSettings } },
  },
  async (c) => c.json(await tenantSettingsView(c.env, c.get("tenant"), Date.now())),
);

route(
  tenantSettingsRoutes,
  {
    method: "put",
    path: "/settings",
    summary: "Set the tenant's retention: what it makes is erased this many days after creation",
    tag: "erasure",
    auth: "key",
    // a retention erases for good, like the erase routes: only the tenant's admin keys may set it
    scope: "admin",
    body: tenantSettingsBody,
    example: { retentionDays: 365 },
    ok: { 200: { description: "the settings as they now are, and the next run", schema: tenantSettings } },
    refusals: [400, 403, 415],
  },
  async (c, input) => {
    const { retentionDays } = await input.body();
    const tenant = c.get("tenant");
    const now = Date.now();
    const db = database(c.env.DB);
    await withAudit(
      db,
      [setTenantRetention(db, tenant, retentionDays, now)],
      [{ tenant, who: c.get("actor"), what: "settings.change", at: now, detail: { retentionDays } }],
    );
    return c.json(await tenantSettingsView(c.env, tenant, now));
  },
);
