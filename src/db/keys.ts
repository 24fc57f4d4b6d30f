import { getTableColumns, type SQL, sql } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { AuditEntry } from "./audit";
import type { Db } from "./database";
import { apiKeys, auditLog } from "./schema";

export type NewKeyRow = Required<Omit<typeof apiKeys.$inferInsert, "revokedAt">>;

/** How many keys of the tenant are active at `now`: neither revoked nor expired. */
function activeKeys(tenant: string, now: number): SQL {
  return sql`(SELECT COUNT(*) FROM ${apiKeys} WHERE ${apiKeys.tenant} = ${tenant} AND ${apiKeys.revokedAt} IS NULL
    AND (${apiKeys.expiresAt} IS NULL OR ${apiKeys.expiresAt} > ${now}))`;
}

/**
 * `SELECT <the row's values> WHERE <condition>`, for an INSERT ... SELECT into `table`: every column of
 * the table in its order (drizzle names them all), each value as the column stores it (JSON as text), a
 * column the row leaves out NULL.
 */
function rowIf(table: SQLiteTable, row: Record<string, unknown>, condition: SQL): SQL {
  const values = Object.entries(getTableColumns(table)).map(([name, column]) =>
    row[name] === undefined || row[name] === null ? sql`NULL` : sql.param(row[name], column),
  );
  return sql`SELECT ${sql.join(values, sql`, `)} WHERE ${condition}`;
}

/**
 * Stores the key and its audit line only if its tenant has fewer than `cap` active keys at `now`:
 * one batch (one D1 transaction), so requests racing each other cannot pass the cap together, and the
 * audit line is written only with its key. Whether it was stored.
 */
export async function insertKeyUnderCap(db: Db, row: NewKeyRow, line: AuditEntry, cap: number, now: number): Promise<boolean> {
  const [inserted] = await db.batch([
    db
      .insert(apiKeys)
      .select(rowIf(apiKeys, row, sql`${activeKeys(row.tenant, now)} < ${cap}`))
      .returning({ id: apiKeys.id }),
    db.insert(auditLog).select(rowIf(auditLog, { ...line }, sql`EXISTS (SELECT 1 FROM ${apiKeys} WHERE ${apiKeys.id} = ${row.id})`)),
  ]);
  return inserted.length === 1;
}
