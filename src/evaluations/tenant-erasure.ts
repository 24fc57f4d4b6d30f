import { audit } from "../db/audit";
import type { Erased } from "../contract/erasure";
import { database } from "../db/database";
import {
  beginErasure,
  deleteTenantRows,
  findTombstone,
  finishErasure,
  revokeTenantKeys,
  tenantHoldings,
  tenantKnown,
} from "../db/erasures";
import { erasedView, tenantTombstoneId } from "../model/erasure";
import { ProblemError } from "../platform/problems";
import { webhookQueueStub } from "../platform/stubs";
import { erase } from "./erasure";

/** Who erases a whole tenant: the admin token, which has no key id. */
const ADMIN = "admin";

/**
 * Erases a tenant whole (DELETE /v1/tenants/:tenant, admin): its keys are revoked first, so nothing it
 * asks is done meanwhile; then each of its collections, batches and evaluations is erased as its own
 * erase route would (each with its tombstone, so its links answer 410), its webhook queue and log are
 * deleted, and its webhook secret and idempotency rows. Recorded first like any erasure: asked again,
 * a tenant erasure cut off in the middle is finished; asked again once done, the same 200. A tenant
 * that never had a key is a 404.
 */
export async function eraseTenant(env: Env, tenant: string): Promise<Erased> {
  const id = tenantTombstoneId(tenant);
  const db = database(env.DB);
  const found = await findTombstone(db, id);
  if (found?.state === "erased") return erasedView(found);
  if (!found) {
    if (!(await tenantKnown(env.DB, tenant))) throw new ProblemError(404, "no such tenant");
    const now = Date.now();
    await beginErasure(env.DB, { id, tenant, kind: "tenant", by: ADMIN, now });
    // the tenant's audit lines stay, this one last among them
    await audit(db, { tenant, who: ADMIN, what: "tenant.erase", at: now });
  }
  await revokeTenantKeys(env.DB, tenant, Date.now());
  for (const item of await tenantHoldings(env.DB, tenant)) {
    try {
      await erase(env, tenant, item.kind, item.id, ADMIN);
    } catch (err) {
      // erased on the way with what held it (a collection's evaluation): nothing is left to do
      if (!(err instanceof ProblemError && err.status === 404)) throw err;
    }
  }
  await webhookQueueStub(env, tenant).forgetAll();
  await deleteTenantRows(env.DB, tenant);
  await finishErasure(env.DB, id, Date.now());
  return erasedView((await findTombstone(db, id))!);
}
