import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ensureSchema, schemaVersion } from "../../durable-objects/schema";
import { TournamentStore, tournamentSchema } from "../../durable-objects/store";
import { tournamentStub } from "../../src/platform/stubs";

/** The Tournament object's tables as every object made before versioned schemas has them. */
const previousSchema = [
  "CREATE TABLE evaluation (id TEXT PRIMARY KEY, input TEXT NOT NULL, status TEXT NOT NULL, error TEXT, created_at INTEGER NOT NULL)",
  "CREATE TABLE answer (position INTEGER PRIMARY KEY, id TEXT NOT NULL, text TEXT NOT NULL)",
  `CREATE TABLE result (match INTEGER NOT NULL, call INTEGER NOT NULL, scores TEXT NOT NULL, raw TEXT NOT NULL,
    prompt_tokens INTEGER NOT NULL, completion_tokens INTEGER NOT NULL, seq INTEGER NOT NULL, PRIMARY KEY (match, call))`,
  "CREATE TABLE counter (name TEXT PRIMARY KEY, value INTEGER NOT NULL)",
];

/** A fresh object's storage emptied of what its constructor made, so a test can lay out older tables. */
function wipe(sql: SqlStorage): void {
  for (const t of ["evaluation", "answer", "result", "counter", "feedback", "_schema"]) sql.exec(`DROP TABLE IF EXISTS ${t}`);
}

describe("versioned Durable Object schemas", () => {
  it("upgrades a tournament made by the first schema: examinees move from the input's JSON to their column, old inputs get their defaults, results stay", async () => {
    const stub = tournamentStub(env, "ev_schema_upgrade");
    await runInDurableObject(stub, (_instance: unknown, state: DurableObjectState) => {
      const sql = state.storage.sql;
      wipe(sql);
      for (const statement of previousSchema) sql.exec(statement);
      const input = {
        id: "ev_schema_upgrade",
        tenant: "t",
        question: "q",
        judge: { model: null, temperature: 0.1 },
        examinees: { a: "ana", b: "ben" },
      };
      sql.exec("INSERT INTO evaluation (id, input, status, created_at) VALUES (?, ?, 'running', 1)", input.id, JSON.stringify(input));
      sql.exec("INSERT INTO answer (position, id, text) VALUES (0, 'a', 'first'), (1, 'b', 'second'), (2, 'c', 'third')");
      sql.exec("INSERT INTO result VALUES (0, 0, '[3,4]', 'Answer 1: 3/5 Answer 2: 4/5', 10, 5, 0)");
      expect(schemaVersion(sql, tournamentSchema.name)).toBe(0);

      const store = new TournamentStore(state.storage);

      expect(schemaVersion(sql, tournamentSchema.name)).toBe(tournamentSchema.migrations.length);
      expect(store.input()?.answers).toEqual([
        { id: "a", text: "first", examinee: "ana" },
        { id: "b", text: "second", examinee: "ben" },
        { id: "c", text: "third" },
      ]);
      expect(store.input()).not.toHaveProperty("examinees");
      // stored before pairing, structured outputs and scoreFrom existed: the settings they ran with are written in
      expect(store.input()).toMatchObject({
        pairing: "round",
        judge: { model: null, temperature: 0.1, structuredOutputs: false, scoreFrom: "text" },
      });
      // and no bye rule: such a bracket replays "no-repeat", as it was played
      expect(store.input()).not.toHaveProperty("byes");
      // results recorded before version 4 had no probabilities and were never asked again, and before
      // version 5 did not say which endpoint of the pool answered, nor before version 8 their unheld
      // expectations, nor before version 9 the model, its revision and the seed sent
      expect(store.results()).toEqual([
        {
          match: 0,
          call: 0,
          scores: [3, 4],
          expected: null,
          spread: null,
          unheld: null,
          parseRetried: false,
          endpoint: null,
          model: null,
          revision: null,
          seed: null,
          judge: null,
          votes: null,
          raw: "Answer 1: 3/5 Answer 2: 4/5",
          promptTokens: 10,
          completionTokens: 5,
        },
      ]);
      expect(store.status()).toEqual({ status: "running", error: null });
      // version 7: no feedback recorded, and an input stored before it asked for none
      expect(store.feedback()).toEqual([]);
      expect(store.input()).not.toHaveProperty("feedback");
    });
  });

  it("runs a migration once: a second start at the latest version changes nothing", async () => {
    const stub = tournamentStub(env, "ev_schema_once");
    await runInDurableObject(stub, (_instance: unknown, state: DurableObjectState) => {
      const store = new TournamentStore(state.storage);
      store.create(
        {
          id: "ev_schema_once",
          tenant: "t",
          question: "q",
          reference: null,
          maxScore: 5,
          template: "exam",
          method: "knockout",
          debias: true,
          seed: 1,
          pairing: "bracket",
          judge: { model: null, temperature: 0.1, structuredOutputs: false, scoreFrom: "text" },
          answers: [{ id: "a", text: "x", examinee: "ana" }],
          rubric: null,
          createdAt: 1,
        },
        1,
      );
      // were the examinee migration run again, it would read examinees from the input's JSON (none) and wipe them
      ensureSchema(state.storage, tournamentSchema);
      expect(new TournamentStore(state.storage).input()?.answers).toEqual([{ id: "a", text: "x", examinee: "ana" }]);
    });
  });

  it("refuses storage written by a newer version of the code rather than guessing", async () => {
    const stub = tournamentStub(env, "ev_schema_newer");
    await runInDurableObject(stub, (_instance: unknown, state: DurableObjectState) => {
      const [{ version }] = state.storage.sql
        .exec<{ version: number }>("SELECT version FROM _schema WHERE name = ?", tournamentSchema.name)
        .toArray();
      state.storage.sql.exec("UPDATE _schema SET version = 99 WHERE name = ?", tournamentSchema.name);
      expect(() => ensureSchema(state.storage, tournamentSchema)).toThrow(/newer than this code's/);
      // put back: the files after this one share the runtime, and a test that reads every object's
      // storage (the secrets and data-map tests) would meet this one's refusal
      state.storage.sql.exec("UPDATE _schema SET version = ? WHERE name = ?", version, tournamentSchema.name);
    });
  });
});
