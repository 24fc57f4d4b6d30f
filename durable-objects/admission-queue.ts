import type { Held, Queued } from "../src/gate/admission";
import { ensureSchema, type ObjectSchema } from "./schema";

/**
 * The JudgeGate's own SQLite: the evaluations waiting for their turn to run at its judge endpoint, and
 * those running (started_at set). Rows outlive the gate's memory, so a restart loses no queued
 * question; a row is deleted when its evaluation ends.
 */
/** The queue's tables, by version (see ./schema.ts). */
export const admissionSchema: ObjectSchema = {
  name: "admission",
  migrations: [
    [
      `CREATE TABLE IF NOT EXISTS admission (
        id TEXT PRIMARY KEY, tenant TEXT NOT NULL, seq INTEGER NOT NULL, started_at INTEGER)`,
      "CREATE INDEX IF NOT EXISTS admission_waiting ON admission (started_at, tenant, seq)",
      "CREATE TABLE IF NOT EXISTS admission_turn (k INTEGER PRIMARY KEY CHECK (k = 0), last_tenant TEXT)",
    ],
    // questions of a batch start after interactive evaluations (src/gate/admission.ts `admit`)
    ["ALTER TABLE admission ADD COLUMN batch INTEGER NOT NULL DEFAULT 0"],
  ],
};

export class AdmissionQueue {
  private readonly sql: SqlStorage;

  constructor(storage: DurableObjectStorage) {
    this.sql = storage.sql;
    ensureSchema(storage, admissionSchema);
  }

  /** Queues evaluations; one already queued or running keeps its place. */
  add(entries: readonly { id: string; tenant: string; batch?: boolean }[]): void {
    let seq = this.sql.exec<{ s: number }>("SELECT COALESCE(MAX(seq), 0) AS s FROM admission").one().s;
    for (const e of entries)
      this.sql.exec("INSERT OR IGNORE INTO admission (id, tenant, seq, batch) VALUES (?, ?, ?, ?)", e.id, e.tenant, ++seq, e.batch ? 1 : 0);
  }

  running(): number {
    return this.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM admission WHERE started_at IS NOT NULL").one().n;
  }

  /** Running evaluations by tenant and kind, for the tenants that have any. */
  runningByTenant(): Map<string, Held> {
    const rows = this.sql
      .exec<{ tenant: string; i: number; b: number }>(
        "SELECT tenant, SUM(batch = 0) AS i, SUM(batch = 1) AS b FROM admission WHERE started_at IS NOT NULL GROUP BY tenant",
      )
      .toArray();
    return new Map(rows.map((r) => [r.tenant, { interactive: r.i, batch: r.b }]));
  }

  waiting(): number {
    return this.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM admission WHERE started_at IS NULL").one().n;
  }

  /** The first `perTenant` waiting evaluations of every tenant, of each kind: all a pick of that many can need. */
  heads(perTenant: number): Queued[] {
    return this.sql
      .exec<{ id: string; tenant: string; seq: number; batch: number }>(
        `SELECT id, tenant, seq, batch FROM (
           SELECT id, tenant, seq, batch, ROW_NUMBER() OVER (PARTITION BY tenant, batch ORDER BY seq) AS place
           FROM admission WHERE started_at IS NULL)
         WHERE place <= ?`,
        perTenant,
      )
      .toArray()
      .map((r) => ({ id: r.id, tenant: r.tenant, seq: r.seq, batch: r.batch === 1 }));
  }

  lastTenant(): string | null {
    return this.sql.exec<{ last_tenant: string | null }>("SELECT last_tenant FROM admission_turn").toArray()[0]?.last_tenant ?? null;
  }

  markStarted(ids: readonly string[], lastTenant: string | null, now: number): void {
    for (const id of ids) this.sql.exec("UPDATE admission SET started_at = ? WHERE id = ?", now, id);
    this.sql.exec(
      "INSERT INTO admission_turn (k, last_tenant) VALUES (0, ?) ON CONFLICT (k) DO UPDATE SET last_tenant = excluded.last_tenant",
      lastTenant,
    );
  }

  /** A start that failed goes back to waiting, keeping its place in its tenant's line. */
  markWaiting(id: string): void {
    this.sql.exec("UPDATE admission SET started_at = NULL WHERE id = ?", id);
  }

  /** Running evaluations started before `before`: the ones to look in on. */
  startedBefore(before: number): string[] {
    return this.sql
      .exec<{ id: string }>("SELECT id FROM admission WHERE started_at IS NOT NULL AND started_at < ?", before)
      .toArray()
      .map((r) => r.id);
  }

  /** Removes an evaluation (it ended, or was cancelled); true if it was there. */
  remove(id: string): boolean {
    return this.sql.exec("DELETE FROM admission WHERE id = ?", id).rowsWritten > 0;
  }
}
