import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ensureSchema } from "../../durable-objects/schema";
import { TournamentStore, tournamentSchema } from "../../durable-objects/store";
import type { JudgedCall } from "../../src/judge/play";
import { metered, usageTally } from "../../src/platform/meter";
import { tournamentStub } from "../../src/platform/stubs";

// A Durable Object's SQLite rows written are billed (issue 29). Each judge result was five: its row and
// its key's entry, and three counter rows (prompt, shared prefix and completion tokens). Now two: the
// result row holds the tokens it is counted for. (Stored WITHOUT ROWID it would be one, but a result
// carries the judge's words, a thousand bytes and more, which would each spill to an overflow page.)
const result = (match: number, call: number): JudgedCall => ({
  match,
  call,
  scores: [3, 4],
  expected: null,
  spread: null,
  unheld: null,
  parseRetried: false,
  endpoint: null,
  raw: "Answer 1: 3/5 Answer 2: 4/5",
  promptTokens: 0,
  completionTokens: 12,
});
const tokens = { promptTokens: 100, sharedPrefixTokens: 60, completionTokens: 12 };

function wipe(sql: SqlStorage): void {
  for (const t of ["evaluation", "answer", "result", "counter", "feedback", "_schema"]) sql.exec(`DROP TABLE IF EXISTS ${t}`);
}

describe("a judge result in the Tournament's storage", () => {
  it("is two rows written (the row and its key), and its tokens are counted once, in this life and the next", async () => {
    metered({ ...env, METER_USAGE: "true" }); // the isolate meters from now on
    await runInDurableObject(tournamentStub(env, "ev_rows_one"), (_instance: unknown, state: DurableObjectState) => {
      const store = new TournamentStore(state.storage);
      const tally = usageTally().objectSql;
      const before = tally.rowsWritten;
      store.saveResult(result(0, 0), tokens);
      expect(tally.rowsWritten - before).toBe(2);
      store.saveResult(result(0, 1), tokens);
      expect(tally.rowsWritten - before).toBe(4);
      expect(() => store.saveResult(result(0, 1), tokens)).toThrow(); // the same call twice: refused
      expect(store.counters()).toMatchObject({ promptTokens: 200, sharedPrefixTokens: 120, completionTokens: 24 });
      // the next life of the object (a restart) sums them from the rows
      expect(new TournamentStore(state.storage).counters()).toMatchObject({
        promptTokens: 200,
        sharedPrefixTokens: 120,
        completionTokens: 24,
      });
      expect(new TournamentStore(state.storage).results().map((r) => [r.match, r.call])).toEqual([
        [0, 0],
        [0, 1],
      ]);
    });
  });

  it("keeps results recorded before version 10, their tokens still counted once", async () => {
    await runInDurableObject(tournamentStub(env, "ev_rows_upgrade"), (_instance: unknown, state: DurableObjectState) => {
      const sql = state.storage.sql;
      wipe(sql);
      ensureSchema(state.storage, { name: tournamentSchema.name, migrations: tournamentSchema.migrations.slice(0, 9) });
      // as version 9 recorded a result: its row, and its tokens in the counters
      sql.exec(
        "INSERT INTO result (match, call, scores, raw, prompt_tokens, completion_tokens, seq) VALUES (0, 0, '[3,4]', 'Answer 1: 3/5 Answer 2: 4/5', 0, 12, 0)",
      );
      sql.exec("INSERT INTO counter (name, value) VALUES ('promptTokens', 100), ('sharedPrefixTokens', 60), ('completionTokens', 12)");
      const store = new TournamentStore(state.storage);
      expect(store.results()).toHaveLength(1);
      expect(store.counters()).toMatchObject({ promptTokens: 100, sharedPrefixTokens: 60, completionTokens: 12 });
      store.saveResult(result(0, 1), tokens);
      expect(store.counters()).toMatchObject({ promptTokens: 200, sharedPrefixTokens: 120, completionTokens: 24 });
      expect(store.resultCount()).toBe(2);
    });
  });
});
