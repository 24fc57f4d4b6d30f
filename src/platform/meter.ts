/**
 * What a deployment is billed for, counted where the service spends it, for the bench's bill (issue
 * 29): D1 statements and the rows D1 itself says they read and wrote (each result's `meta`), and the
 * requests made to each kind of Durable Object (RPC calls and fetches through a stub). Off unless
 * METER_USAGE is "true" (the bench sets it): then `metered(env)` hands out the same bindings wrapped,
 * and the tally lives on `globalThis.__knockoutMeter`, one per isolate (local workerd runs the Worker
 * and all its Durable Objects in one), where the bench reads it over the inspector.
 *
 * D1 returns no `meta` for `raw()` and `first()`: their statements are counted as `unmetered` (drizzle
 * reads rows through `raw()`; every write goes through `run()` or `batch()`, which say their rows).
 */
export interface UsageTally {
  d1: { statements: number; rowsRead: number; rowsWritten: number; unmetered: number };
  /** Requests to Durable Objects, by binding and method ("TOURNAMENT.start", "JUDGE_GATE.acquire"). */
  objects: Record<string, number>;
  /** Statements run on Durable Objects' own SQLite (the ones given `meteredSql`), and the rows they wrote. */
  objectSql: { statements: number; rowsWritten: number };
}

const KEY = "__knockoutMeter";

/** This isolate's tally, made on first use. */
export function usageTally(): UsageTally {
  const g = globalThis as unknown as Record<string, UsageTally | undefined>;
  g[KEY] ??= {
    d1: { statements: 0, rowsRead: 0, rowsWritten: 0, unmetered: 0 },
    objects: {},
    objectSql: { statements: 0, rowsWritten: 0 },
  };
  return g[KEY];
}

type Meta = { rows_read?: number; rows_written?: number } | undefined;

function count(meta: Meta): void {
  const d1 = usageTally().d1;
  d1.statements++;
  d1.rowsRead += meta?.rows_read ?? 0;
  d1.rowsWritten += meta?.rows_written ?? 0;
}

const wrapped = new WeakMap<object, D1PreparedStatement>();

function statement(inner: D1PreparedStatement): D1PreparedStatement {
  const outer = {
    bind: (...values: unknown[]) => statement(inner.bind(...values)),
    run: async () => {
      const r = await inner.run();
      count(r.meta);
      return r;
    },
    all: async () => {
      const r = await inner.all();
      count(r.meta);
      return r;
    },
    first: (column?: string) => {
      usageTally().d1.unmetered++;
      return column === undefined ? inner.first() : inner.first(column);
    },
    raw: (options?: { columnNames?: boolean }) => {
      usageTally().d1.unmetered++;
      return options?.columnNames ? inner.raw({ columnNames: true }) : inner.raw();
    },
  } as unknown as D1PreparedStatement;
  wrapped.set(outer, inner);
  return outer;
}

function database(inner: D1Database): D1Database {
  return {
    prepare: (query: string) => statement(inner.prepare(query)),
    batch: async (statements: D1PreparedStatement[]) => {
      const results = await inner.batch(statements.map((s) => wrapped.get(s) ?? s));
      for (const r of results) count(r.meta);
      return results;
    },
    exec: (query: string) => inner.exec(query),
    dump: () => inner.dump(),
    withSession: (constraint?: string) => inner.withSession(constraint),
  } as unknown as D1Database;
}

/** A stub whose every method call (RPC or fetch) is counted under `binding.method`. */
function countedStub<T extends object>(binding: string, stub: T): T {
  return new Proxy(stub, {
    get(target, prop) {
      const value = Reflect.get(target, prop);
      if (typeof value !== "function" || typeof prop !== "string") return value;
      return (...args: unknown[]) => {
        const objects = usageTally().objects;
        const name = `${binding}.${prop}`;
        objects[name] = (objects[name] ?? 0) + 1;
        // Reflect.apply: an RPC method is itself a stub, on which `.apply` would be a call of a method "apply"
        return Reflect.apply(value, target, args);
      };
    },
  });
}

function namespace<N extends DurableObjectNamespace>(binding: string, inner: N): N {
  return new Proxy(inner, {
    get(target, prop) {
      const value = Reflect.get(target, prop);
      if (prop === "get" || prop === "getByName")
        return (...args: unknown[]) => countedStub(binding, Reflect.apply(value as (...a: unknown[]) => object, target, args));
      return typeof value === "function" ? (...args: unknown[]) => Reflect.apply(value, target, args) : value;
    },
  });
}

const meteredEnvs = new WeakMap<Env, Env>();

/** `env` with its D1 and Durable Object bindings counted, when METER_USAGE is "true"; else `env` itself. */
export function metered(env: Env): Env {
  if (env.METER_USAGE !== "true") return env;
  usageTally();
  let out = meteredEnvs.get(env);
  if (!out) {
    const bindings: Record<string, unknown> = { DB: database(env.DB) };
    for (const name of ["TOURNAMENT", "JUDGE_GATE", "COLLECTION", "WEBHOOKS", "RATE_LIMITER"] as const)
      bindings[name] = namespace(name, env[name]);
    out = { ...env, ...bindings } as Env;
    meteredEnvs.set(env, out);
  }
  return out;
}

/**
 * A Durable Object's SQLite with the rows its statements write counted, once `metered` has seen
 * METER_USAGE on in this isolate; else `sql` itself. A write has run by the time `exec` returns, so
 * its cursor's `rowsWritten` is read at once (reads, counted as they are consumed, are left out).
 */
export function meteredSql(sql: SqlStorage): SqlStorage {
  if (!(globalThis as unknown as Record<string, unknown>)[KEY]) return sql;
  return new Proxy(sql, {
    get(target, prop) {
      if (prop === "exec")
        return (query: string, ...bindings: unknown[]) => {
          const cursor = target.exec(query, ...bindings);
          const tally = usageTally().objectSql;
          tally.statements++;
          tally.rowsWritten += cursor.rowsWritten;
          return cursor;
        };
      const value = Reflect.get(target, prop);
      return typeof value === "function" ? (...args: unknown[]) => Reflect.apply(value, target, args) : value;
    },
  });
}
