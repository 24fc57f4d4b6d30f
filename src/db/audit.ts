import { and, asc, eq, gt, gte, or } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { AuditVerb } from "../contract/names";
import type { Db } from "./database";
import { type AuditDetail, auditLog } from "./schema";

export type { AuditDetail };

/** One thing done to a tenant's data, by whom; the resource it touched named by ids only. */
export interface AuditEntry {
  tenant: string;
  /** The API key's id, or "admin" for the service's admin token. */
  who: string;
  what: AuditVerb;
  at: number;
  evaluationId?: string | null;
  answerId?: string | null;
  collectionId?: string | null;
  keyId?: string | null;
  detail?: AuditDetail | null;
}

// 10 columns a row (the seq is the database's), D1's 100 bound parameters a statement: 10 rows an insert
const ROWS_PER_INSERT = 10;

/**
 * The inserts of the entries, to run in the same `db.batch` as the change they record: D1 runs a batch
 * as one transaction, so neither is kept without the other.
 */
export function auditStatements(db: Db, entries: readonly AuditEntry[]): BatchItem<"sqlite">[] {
  const rows = entries.map((e) => ({
    tenant: e.tenant,
    who: e.who,
    what: e.what,
    at: e.at,
    evaluationId: e.evaluationId ?? null,
    answerId: e.answerId ?? null,
    collectionId: e.collectionId ?? null,
    keyId: e.keyId ?? null,
    detail: e.detail ?? null,
  }));
  const inserts: BatchItem<"sqlite">[] = [];
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) inserts.push(db.insert(auditLog).values(rows.slice(i, i + ROWS_PER_INSERT)));
  return inserts;
}

/** Runs the change's statements and the entries' lines as one batch: both are kept, or neither. */
export async function withAudit(db: Db, change: readonly BatchItem<"sqlite">[], entries: readonly AuditEntry[]): Promise<void> {
  const all = [...change, ...auditStatements(db, entries)];
  if (all.length === 0) return;
  await db.batch(all as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
}

/**
 * Records the entries on their own, for a change that cannot join a batch (it ran already, or outside
 * D1): the erasure routes, a Durable Object's storage, a secret written by another module.
 */
export async function audit(db: Db, ...entries: AuditEntry[]): Promise<void> {
  await withAudit(db, [], entries);
}

/**
 * The tenant's lines from `since` (unix ms), oldest first, after the line a page ended on (its at and
 * seq), one more than asked so the caller knows whether a next page exists.
 */
export async function auditLines(db: Db, tenant: string, since: number, after: { at: number; seq: number } | null, limit: number) {
  const from = after ? or(gt(auditLog.at, after.at), and(eq(auditLog.at, after.at), gt(auditLog.seq, after.seq))) : undefined;
  return db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.tenant, tenant), gte(auditLog.at, since), from))
    .orderBy(asc(auditLog.at), asc(auditLog.seq))
    .limit(limit + 1);
}
