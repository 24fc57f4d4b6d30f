import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { metered, meteredSql, usageTally } from "../../src/platform/meter";

// The bench's bill (issue 29) counts what D1 itself says it read and wrote, and every request made to a
// Durable Object through a stub. Off unless METER_USAGE is "true": then the same bindings, counted.
describe("the usage meter", () => {
  it("hands out the bindings as they are unless METER_USAGE is on", () => {
    expect(metered(env)).toBe(env);
  });

  it("counts D1's own rows written and read, from its result meta, through run, all and batch", async () => {
    const on = metered({ ...env, METER_USAGE: "true" });
    const tally = usageTally();
    const before = { ...tally.d1 };
    await on.DB.exec("CREATE TABLE IF NOT EXISTS meter_probe (k TEXT PRIMARY KEY, v INTEGER)");
    const run = await on.DB.prepare("INSERT INTO meter_probe (k, v) VALUES (?, ?), (?, ?)").bind("a", 1, "b", 2).run();
    const [batched] = await on.DB.batch([on.DB.prepare("UPDATE meter_probe SET v = v + 1")]);
    const all = await on.DB.prepare("SELECT * FROM meter_probe").all();
    const first = await on.DB.prepare("SELECT v FROM meter_probe WHERE k = ?").bind("a").first("v");
    expect(first).toBe(2);
    const written = run.meta.rows_written + batched.meta.rows_written + all.meta.rows_written;
    const read = run.meta.rows_read + batched.meta.rows_read + all.meta.rows_read;
    // the insert writes two rows and their primary-key entries: D1's count, whatever it is, is what is added
    expect(run.meta.rows_written).toBeGreaterThanOrEqual(2);
    expect(tally.d1.rowsWritten - before.rowsWritten).toBe(written);
    expect(tally.d1.rowsRead - before.rowsRead).toBe(read);
    expect(tally.d1.statements - before.statements).toBe(3);
    // first() and raw() return no meta: counted apart, never guessed
    expect(tally.d1.unmetered - before.unmetered).toBe(1);
  });

  it("counts each RPC call made through a Durable Object stub, by binding and method", async () => {
    const on = metered({ ...env, METER_USAGE: "true" });
    const tally = usageTally();
    const before = tally.objects["JUDGE_GATE.stats"] ?? 0;
    const gate = on.JUDGE_GATE.get(on.JUDGE_GATE.idFromName("meter-test"));
    await gate.stats();
    await gate.stats();
    expect(tally.objects["JUDGE_GATE.stats"] - before).toBe(2);
  });

  it("counts the rows a Durable Object's SQLite statements write, once metering is on in the isolate", async () => {
    metered({ ...env, METER_USAGE: "true" });
    const stub = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName("meter-sql"));
    // any object's storage will do: the wrapper is what is tested, inside the object's own isolate
    const { runInDurableObject } = await import("cloudflare:test");
    await runInDurableObject(stub, (_instance, state) => {
      const sql = meteredSql(state.storage.sql);
      const tally = usageTally().objectSql;
      const before = tally.rowsWritten;
      sql.exec("CREATE TABLE IF NOT EXISTS probe (k INTEGER PRIMARY KEY)");
      const cursor = sql.exec("INSERT INTO probe (k) VALUES (1), (2), (3)");
      expect(cursor.rowsWritten).toBeGreaterThanOrEqual(3);
      expect(tally.rowsWritten - before).toBeGreaterThanOrEqual(3);
    });
  });
});
