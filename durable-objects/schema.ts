/**
 * Versioned tables in a Durable Object's own SQLite, as cloudflare/agents' `_ensureSchema` does: the
 * object stores the version its tables are at, and on start runs only the migrations past it, in one
 * transaction each. An object made before versions were kept (its tables made with `IF NOT EXISTS`,
 * no version stored) is at version 0; each schema's first migration therefore still says
 * `IF NOT EXISTS`, so it adopts such tables as they are and the later migrations move them on.
 */
export interface ObjectSchema {
  /** One name per kind of object, so two schemas could share one storage without mixing versions. */
  name: string;
  /** Migration i (from 0) takes the tables from version i to version i + 1. Append; never edit one. */
  migrations: readonly (readonly string[])[];
}

/** The version a schema's tables are at in this storage (0 when none was stored). */
export function schemaVersion(sql: SqlStorage, name: string): number {
  sql.exec("CREATE TABLE IF NOT EXISTS _schema (name TEXT PRIMARY KEY, version INTEGER NOT NULL)");
  return sql.exec<{ version: number }>("SELECT version FROM _schema WHERE name = ?", name).toArray()[0]?.version ?? 0;
}

/**
 * Brings the tables up to the schema's latest version. Call it from the object's constructor with
 * `ctx.storage.transactionSync`, so a migration and its version land together or not at all.
 */
export function ensureSchema(storage: Pick<DurableObjectStorage, "sql" | "transactionSync">, schema: ObjectSchema): void {
  const { sql } = storage;
  const latest = schema.migrations.length;
  let version = schemaVersion(sql, schema.name);
  if (version > latest) throw new Error(`${schema.name}: stored schema version ${version} is newer than this code's ${latest}`);
  while (version < latest) {
    const step = schema.migrations[version];
    const next = version + 1;
    storage.transactionSync(() => {
      for (const statement of step) sql.exec(statement);
      sql.exec(
        "INSERT INTO _schema (name, version) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET version = excluded.version",
        schema.name,
        next,
      );
    });
    version = next;
  }
}
