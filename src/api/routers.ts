import type { Hono } from "hono";
import { auditTrail } from "./audit";
import { batches } from "./batches";
import { collections } from "./collections";
import type { App } from "./context";
import { erasures } from "./erasure";
import { evaluations } from "./evaluations";
import { subjectExport, tenantExport } from "./export";
import { feedback } from "./feedback";
import { grades } from "./grades";
import { judges } from "./judges";
import { keys } from "./keys";
import { ltiTool } from "./lti";
import { ltiCourse } from "./lti-course";
import { ltiPlatformRoutes } from "./lti-platforms";
import { ltiCollectionRoutes } from "./lti-scores";
import { meta } from "./meta";
import { publicCollections } from "./public-collections";
import { ratings } from "./ratings";
import { receipts } from "./receipts";
import { releases } from "./releases";
import { type Declaration, declarationsOf } from "./route";
import { shared, shareLinks } from "./shares";
import { subjects } from "./subjects";
import { tenantKeys } from "./tenant-keys";
import { tenantSettingsRoutes } from "./tenant-settings";
import { tenants } from "./tenants";
import { webhookSecret } from "./webhooks";

/**
 * The API's routers and where the app mounts them, in the order it does (a path's `Allow` lists its
 * methods in that order). Each route checks its own auth (./route.ts), so the prefix only places it.
 */
export const apiRouters: ReadonlyArray<readonly [prefix: string, router: Hono<App>]> = [
  ["/v1/keys", keys],
  ["/v1/audit", auditTrail],
  ["/v1/webhook-secret", webhookSecret],
  ["/v1/evaluations", evaluations],
  ["/v1/batches", batches],
  ["/v1/ratings", ratings],
  ["/v1/evaluations", shareLinks],
  ["/v1/evaluations", grades],
  ["/v1/evaluations", releases],
  ["/v1/evaluations", feedback],
  ["/v1/shared", shared],
  ["/v1/meta", meta],
  ["/v1/judges", judges],
  ["/v1/collections", collections],
  ["/v1/collections", ltiCollectionRoutes],
  ["/v1/public/collections", publicCollections],
  ["/v1/receipts", receipts],
  ["/v1", erasures],
  ["/v1/tenants", tenants],
  ["/v1/subjects", subjects],
  ["/v1/tenant", tenantSettingsRoutes],
  ["/v1/tenant", tenantExport],
  ["/v1/tenant", tenantKeys],
  ["/v1/subjects", subjectExport],
  ["/v1/lti/platforms", ltiPlatformRoutes],
  ["/lti", ltiTool],
  ["/lti", ltiCourse],
];

/** A declared route at its full path, OpenAPI style (`{id}`, not `:id`). */
export type DeclaredRoute = Declaration & { path: string };

/** Every route the API's routers declare, at the paths the app mounts them on. */
export function declaredRoutes(): DeclaredRoute[] {
  return apiRouters.flatMap(([prefix, router]) =>
    declarationsOf(router).map((d) => ({ ...d, path: `${prefix}${d.path === "/" ? "" : d.path}`.replace(/:(\w+)/g, "{$1}") })),
  );
}
