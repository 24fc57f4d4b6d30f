import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { database } from "../../src/db/database";
import { readOutcome } from "../../src/db/evaluations";
import type * as schema from "../../src/db/schema";

// Migration 0027 moves every judge_calls row into its match's `calls`, in call order, and drops the
// table. A D1 of this test's own (MIGRATION_DB, vitest.config.ts: the service's DB is shared by the
// files of a runtime, and other files' evaluations may still be ending) is brought to 0026 by the
// service's own migrations, given rows of every kind, and migrated: what the service reads back is
// what the rows said.
type Migration = Parameters<typeof applyD1Migrations>[1][number];
const migrations = (env as unknown as { TEST_MIGRATIONS: Migration[] }).TEST_MIGRATIONS;
const DB = (env as unknown as { MIGRATION_DB: D1Database }).MIGRATION_DB;

async function backTo0026() {
  await applyD1Migrations(
    DB,
    migrations.filter((m) => m.name < "0027_"),
  );
}

describe("migration 0027: a match's calls in its row", () => {
  it("moves every call of every match, in call order, with each field it had, and drops judge_calls", async () => {
    await backTo0026();
    const id = "ev_migrated";
    const match = DB.prepare(
      "INSERT INTO matches (evaluation_id, idx, round, a, b, score_a, score_b, winner, tie, extra) VALUES (?, ?, 1, ?, ?, ?, ?, ?, ?, ?)",
    );
    await match.bind(id, 0, "x", "y", 7, 4, "x", null, 0).run();
    await match.bind(id, 1, "z", null, 5, null, null, null, 0).run(); // pointwise, and no call recorded
    await match.bind("ev_other", 0, "x", "y", 3, 3, "y", "position", 1).run();
    const call = DB.prepare(
      `INSERT INTO judge_calls (evaluation_id, match_idx, call_idx, "order", scores, raw, expected, spread, unheld,
         parse_retried, endpoint, model, revision, seed, judge, votes, prompt_tokens) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const votes = [
      { judge: "judge-a", scores: [7, 4] },
      { judge: "judge-b", absent: "down" },
    ];
    // the second call inserted first: call order is call_idx, not the rows' order
    await call
      .bind(id, 0, 1, '["y","x"]', "[4,7]", 'Second: "y" 4, x 7 — ok', null, null, null, 1, null, null, null, null, null, null, 0)
      .run();
    await call
      .bind(
        id,
        0,
        0,
        '["x","y"]',
        "[7,4]",
        "First [[x]]",
        "[6.9,4.2]",
        "[0.3,0.5]",
        "[6.8,4.1]",
        0,
        "http://judge/v1",
        "m-1",
        "r1",
        42,
        "judge-a",
        JSON.stringify(votes),
        0,
      )
      .run();
    await call
      .bind("ev_other", 0, 0, '["x","y"]', "[3,3]", "tie", null, null, null, 0, "http://judge/v1", null, null, null, null, null, 12)
      .run();

    for (const q of migrations.find((m) => m.name.startsWith("0027_"))!.queries) await DB.prepare(q).run();

    const shape = await DB.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name IN ('matches', 'judge_calls')").all<{
      name: string;
      sql: string;
    }>();
    expect(shape.results.map((t) => t.name)).toEqual(["matches"]);
    expect(shape.results[0].sql).not.toMatch(/WITHOUT ROWID/);

    const row = { id, champion: "x" } as typeof schema.evaluations.$inferSelect;
    const outcome = await readOutcome(database(DB), row);
    expect(outcome.matches).toEqual([
      {
        round: 1,
        a: "x",
        b: "y",
        scoreA: 7,
        scoreB: 4,
        winner: "x",
        calls: [
          {
            order: ["x", "y"],
            scores: [7, 4],
            raw: "First [[x]]",
            expected: [6.9, 4.2],
            spread: [0.3, 0.5],
            unheld: [6.8, 4.1],
            endpoint: "http://judge/v1",
            model: "m-1",
            revision: "r1",
            seed: 42,
            judge: "judge-a",
            votes,
          },
          { order: ["y", "x"], scores: [4, 7], raw: 'Second: "y" 4, x 7 — ok', expected: null, parseRetried: true, endpoint: null },
        ],
      },
      { round: 1, a: "z", b: null, scoreA: 5, scoreB: null, winner: null, calls: [] },
    ]);
    // a token count judge_calls had (never written by the service, kept if there)
    const other = await DB.prepare("SELECT calls, tie, extra FROM matches WHERE evaluation_id = 'ev_other'").first<{
      calls: string;
      tie: string;
      extra: number;
    }>();
    expect(other).toEqual({ calls: expect.any(String), tie: "position", extra: 1 });
    expect(JSON.parse(other!.calls)).toEqual([
      { order: ["x", "y"], scores: [3, 3], raw: "tie", endpoint: "http://judge/v1", promptTokens: 12 },
    ]);
  });
});
