import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { database } from "../../src/db/database";
import { insertEvaluation, loadInput, writeOutcome } from "../../src/db/evaluations";
import { metered, usageTally } from "../../src/platform/meter";
import { answers, newKey, postEvaluation, request, uniqueTag, waitUntilDone } from "./helpers";

// D1 bills rows written (issue 29). An evaluation writes its answers when it is posted and its outcome
// when it ends. The same evaluation is written again here under a new id, through the meter, which
// adds up what D1's own result meta says. Before issue 29, this evaluation of 16 answers (15 matches,
// 30 calls) wrote 175 rows, 10.94 an answer: its answers were deleted and inserted again at the end,
// and every insert into a table keyed by several columns wrote its key's entry as a second row. Then
// 128: the outcome written into the answers' rows (16, not 48), a match one row (WITHOUT ROWID). Now
// 83, 5.19 an answer: a match carries its calls, two rows a match (its row and its key's entry) rather
// than one a match and two a call.
const BEFORE_PER_ANSWER = 175 / 16;
describe("the rows D1 writes for an evaluation", () => {
  it("are at most half as many per graded answer as before, and the outcome reads back the same", async () => {
    const key = await newKey("rows");
    const tag = uniqueTag("rows");
    const id = await postEvaluation(key, {
      question: `Explain stacks. [tag:${tag}]`,
      answers: answers([3, 8, 1, 6, 5, 9, 2, 7, 4, 6, 3, 8, 5, 2, 7, 9], tag),
    });
    const graded = await waitUntilDone(id, key);
    expect(graded.status).toBe("completed");
    expect(graded.matches.flatMap((m: { calls: unknown[] }) => m.calls)).toHaveLength(30);

    const input = (await loadInput(database(env.DB), id))!;
    const copy = { ...input, id: `ev_${crypto.randomUUID().replace(/-/g, "")}` };
    const db = database(metered({ ...env, METER_USAGE: "true" }).DB);
    const tally = usageTally().d1;
    const before = tally.rowsWritten;
    await insertEvaluation(db, copy, { webhookUrl: null, metadata: null });
    const outcome = { champion: graded.champion, answers: graded.answers, matches: graded.matches };
    const final = { status: "completed" as const, error: null, outcome, usage: graded.usage, now: Date.now() };
    await writeOutcome(db, copy, final);
    const written = tally.rowsWritten - before;
    expect(written / copy.answers.length).toBeLessThanOrEqual(BEFORE_PER_ANSWER * 0.5);

    // a finish written again (a retried alarm) writes the same outcome, nothing twice
    await writeOutcome(db, copy, final);
    const stored = await env.DB.prepare("SELECT count(*) AS n FROM matches WHERE evaluation_id = ?").bind(copy.id).first<{ n: number }>();
    expect(stored!.n).toBe(15);
    const read = await request("GET", `/v1/evaluations/${copy.id}`, { key });
    expect(read.status).toBe(200);
    for (const field of ["champion", "answers", "matches"] as const) expect(read.json[field]).toEqual(graded[field]);
  });

  it("keeps a match's calls in its row, and matches and answers as rowid tables (rows that carry texts)", async () => {
    const shape = async (table: string) =>
      (await env.DB.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?").bind(table).first<{ sql: string }>())?.sql;
    expect(await shape("judge_calls")).toBeUndefined();
    expect(await shape("matches")).toMatch(/`calls` text DEFAULT '\[\]' NOT NULL/);
    // a row of a thousand bytes or more would spill to an overflow page of its own: about twice the storage
    for (const table of ["answers", "matches"]) expect(await shape(table)).not.toMatch(/WITHOUT ROWID/);
  });
});
