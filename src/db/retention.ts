import { eq } from "drizzle-orm";
import type { ErasureKind } from "../model/erasure";
import { DAY_MS, type RetentionCandidate } from "../model/retention";
import type { Db } from "./database";
import { tenantSettings } from "./schema";

/**
 * Everything a retention may erase, with its own and its tenant's retention: standalone evaluations
 * (a batch's questions go with their batch, a collection's grading with its collection), batches and
 * collections. Only those with some retention are kept; `due` is when it holds.
 */
const HELD = `
  SELECT 'evaluation' AS kind, e.id, e.tenant, e.created_at, e.retention_days AS own_days, s.retention_days AS tenant_days, 1 AS weight
    FROM evaluations e LEFT JOIN tenant_settings s ON s.tenant = e.tenant
    WHERE e.batch_id IS NULL
      AND NOT EXISTS (SELECT 1 FROM collections c WHERE c.evaluation_id = e.id OR e.id = 'ev_' || substr(c.id, 5))
  UNION ALL
  SELECT 'batch', b.id, b.tenant, b.created_at, b.retention_days, s.retention_days, b.total
    FROM batches b LEFT JOIN tenant_settings s ON s.tenant = b.tenant
  UNION ALL
  SELECT 'collection', c.id, c.tenant, c.created_at, c.retention_days, s.retention_days, 1
    FROM collections c LEFT JOIN tenant_settings s ON s.tenant = c.tenant`;
const DUE = `created_at + COALESCE(own_days, tenant_days) * ${DAY_MS}`;

interface Row {
  kind: ErasureKind;
  id: string;
  tenant: string;
  created_at: number;
  own_days: number | null;
  tenant_days: number | null;
  weight: number;
}

/**
 * What is due by `now`, the longest overdue first, at most `limit` of it (a run erases at most its
 * budget of things, each weighing at least 1, so the planner never needs more).
 */
export async function dueForRetention(d1: D1Database, now: number, limit: number): Promise<RetentionCandidate[]> {
  const rows = await d1
    .prepare(`SELECT * FROM (${HELD}) WHERE COALESCE(own_days, tenant_days) IS NOT NULL AND ${DUE} <= ?1 ORDER BY ${DUE}, id LIMIT ?2`)
    .bind(now, limit)
    .all<Row>();
  return rows.results.map((r) => ({
    kind: r.kind,
    id: r.id,
    tenant: r.tenant,
    createdAt: r.created_at,
    ownDays: r.own_days,
    tenantDays: r.tenant_days,
    weight: r.weight,
  }));
}

/** How many things of the tenant are due by `now`. */
export async function dueCount(d1: D1Database, now: number, tenant: string): Promise<number> {
  const row = await d1
    .prepare(`SELECT count(*) AS n FROM (${HELD}) WHERE tenant = ?2 AND COALESCE(own_days, tenant_days) IS NOT NULL AND ${DUE} <= ?1`)
    .bind(now, tenant)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/** The tenant's retention in days, or null (none set, or set back to none). */
export async function tenantRetention(db: Db, tenant: string): Promise<number | null> {
  return (await db.query.tenantSettings.findFirst({ where: eq(tenantSettings.tenant, tenant) }))?.retentionDays ?? null;
}

/** The statement that sets the tenant's retention, to run in one batch with its audit line. */
export function setTenantRetention(db: Db, tenant: string, retentionDays: number | null, now: number) {
  return db
    .insert(tenantSettings)
    .values({ tenant, retentionDays, updatedAt: now })
    .onConflictDoUpdate({ target: tenantSettings.tenant, set: { retentionDays, updatedAt: now } });
}
