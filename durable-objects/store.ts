import type { EvaluationInput, JudgeFeedback, Status } from "../src/model/evaluation";
import type { Counter, Counters } from "../src/evaluations/played";
import type { CallTokens, JudgedCall } from "../src/judge/play";
import { ensureSchema, type ObjectSchema } from "./schema";
import { meteredSql } from "../src/platform/meter";

/**
 * The tables, by version (see ./schema.ts). Version 2 gives each answer its examinee column: before,
 * examinee labels rode in the input's JSON so that the answer table kept its first shape. Version 3
 * writes the defaults of inputs stored before `pairing` and `structuredOutputs` existed, so the code
 * reads one shape. Version 4 keeps each result's expected scores, their spread and whether the reply
 * was asked again, which replays must pass to the core as they were first recorded. Version 5 keeps
 * which endpoint of the judge pool answered. Version 6 keeps which gate started the evaluation.
 * Version 7 keeps the feedback the judge wrote for each answer's student (or why it could not), so a
 * restarted object never asks for one twice.
 * Version 8 keeps each result's expected scores before they were held to their cells, which break a
 * tie of held scores; results recorded before have none, and replay as they were played.
 * Version 9 keeps the model the judge said answered, its revision and the sampling seed sent (issue 30:
 * reproducibility); results recorded before have none.
 * Version 10 keeps, with a panel of judges, the judge asked ("cycle") or each judge's answer ("all").
 * Version 11 (issue 29: rows written are billed) counts a result's tokens in its own row (the usage's
 * prompt tokens, estimated where the judge reported none, and its shared prefix), instead of three
 * counter rows moved per call: a judge result is two rows written (its row and its key's entry), not
 * five. (WITHOUT ROWID would make it one, but a result carries the judge's words, often a thousand
 * bytes and more, and such a row spills to an overflow page of its own: about three times the storage.)
 * Results recorded before have their tokens in the counters already, and none in these columns.
 */
export const tournamentSchema: ObjectSchema = {
  name: "tournament",
  migrations: [
    [
      `CREATE TABLE IF NOT EXISTS evaluation (
        id TEXT PRIMARY KEY, input TEXT NOT NULL, status TEXT NOT NULL, error TEXT, created_at INTEGER NOT NULL)`,
      "CREATE TABLE IF NOT EXISTS answer (position INTEGER PRIMARY KEY, id TEXT NOT NULL, text TEXT NOT NULL)",
      `CREATE TABLE IF NOT EXISTS result (
        match INTEGER NOT NULL, call INTEGER NOT NULL, scores TEXT NOT NULL, raw TEXT NOT NULL,
        prompt_tokens INTEGER NOT NULL, completion_tokens INTEGER NOT NULL, seq INTEGER NOT NULL,
        PRIMARY KEY (match, call))`,
      "CREATE TABLE IF NOT EXISTS counter (name TEXT PRIMARY KEY, value INTEGER NOT NULL)",
    ],
    [
      "ALTER TABLE answer ADD COLUMN examinee TEXT",
      `UPDATE answer SET examinee = (
        SELECT value FROM json_each((SELECT input FROM evaluation), '$.examinees') WHERE key = answer.id)`,
      "UPDATE evaluation SET input = json_remove(input, '$.examinees')",
    ],
    // inputs stored before these fields existed: they were paired per round, and judged as text
    [
      "UPDATE evaluation SET input = json_set(input, '$.pairing', 'round') WHERE json_extract(input, '$.pairing') IS NULL",
      "UPDATE evaluation SET input = json_set(input, '$.judge.structuredOutputs', json('false')) WHERE json_extract(input, '$.judge.structuredOutputs') IS NULL",
    ],
    // a result keeps what the judge's probabilities said and whether it was asked again; inputs stored
    // before were decided by the written scores (their bye rule stays absent: "no-repeat", as played)
    [
      "ALTER TABLE result ADD COLUMN expected TEXT",
      "ALTER TABLE result ADD COLUMN spread TEXT",
      "ALTER TABLE result ADD COLUMN parse_retried INTEGER NOT NULL DEFAULT 0",
      "UPDATE evaluation SET input = json_set(input, '$.judge.scoreFrom', 'text') WHERE json_extract(input, '$.judge.scoreFrom') IS NULL",
    ],
    // which endpoint of the judge pool answered; results recorded before pools do not say
    ["ALTER TABLE result ADD COLUMN endpoint TEXT"],
    // the gate that started the evaluation, told when it ends; evaluations started before do not say
    ["ALTER TABLE evaluation ADD COLUMN gate TEXT"],
    // one row per answer whose feedback call ended: its text, or (text null) why it failed for good
    [
      `CREATE TABLE feedback (
        answer_id TEXT PRIMARY KEY, text TEXT, error TEXT, at INTEGER NOT NULL,
        prompt_tokens INTEGER NOT NULL, completion_tokens INTEGER NOT NULL)`,
    ],
    // the expectations before holding; results recorded before do not have them
    ["ALTER TABLE result ADD COLUMN unheld TEXT"],
    // what a rerun needs to ask the same and to tell a different model: none in results recorded before
    [
      "ALTER TABLE result ADD COLUMN model TEXT",
      "ALTER TABLE result ADD COLUMN revision TEXT",
      "ALTER TABLE result ADD COLUMN seed INTEGER",
    ],
    // a panel's judge asked, or every judge's answer and who gave none; results recorded before have neither
    ["ALTER TABLE result ADD COLUMN judge TEXT", "ALTER TABLE result ADD COLUMN votes TEXT"],
    // a result's counted tokens in its own row
    ["ALTER TABLE result ADD COLUMN counted_prompt_tokens INTEGER", "ALTER TABLE result ADD COLUMN counted_shared_tokens INTEGER"],
  ],
};

/**
 * The Durable Object's own SQLite: the evaluation's input, one row per judge result, and counters. The
 * tournament itself is never stored: it is replayed from the results, so a result can never disagree
 * with the state built on it. Tables are versioned and made on first use, as cloudflare/agents does.
 */
export class TournamentStore {
  private readonly sql: SqlStorage;
  /**
   * The results recorded, counted once and then kept: every result's `seq` and every read's state
   * version need it, and COUNT(*) scans the table, which grows with the tournament.
   */
  private recorded: number | null = null;
  /** The tokens counted in the result rows (version 11 on), summed once and then kept up, as `recorded`. */
  private resultTokens: CallTokens | null = null;
  /** The last result's `seq`, read once and then kept up: results dropped (dropCalls) leave gaps in it. */
  private lastSeq: number | null = null;
  private readonly storage: DurableObjectStorage;

  constructor(storage: DurableObjectStorage) {
    this.storage = storage;
    this.sql = meteredSql(storage.sql);
    ensureSchema(storage, tournamentSchema);
  }

  /** Saves the input once; answers get a row each because their texts can be large. */
  create(input: EvaluationInput, now: number): void {
    const { answers, ...rest } = input;
    this.sql.exec("INSERT INTO evaluation (id, input, status, created_at) VALUES (?, ?, 'queued', ?)", input.id, JSON.stringify(rest), now);
    for (const [i, a] of answers.entries()) {
      this.sql.exec("INSERT INTO answer (position, id, text, examinee) VALUES (?, ?, ?, ?)", i, a.id, a.text, a.examinee ?? null);
    }
  }

  input(): EvaluationInput | null {
    const row = this.sql.exec<{ input: string }>("SELECT input FROM evaluation").toArray()[0];
    if (!row) return null;
    const answers = this.sql
      .exec<{ id: string; text: string; examinee: string | null }>("SELECT id, text, examinee FROM answer ORDER BY position")
      .toArray();
    return {
      ...(JSON.parse(row.input) as Omit<EvaluationInput, "answers">),
      answers: answers.map((a) => (a.examinee !== null ? { id: a.id, text: a.text, examinee: a.examinee } : { id: a.id, text: a.text })),
    };
  }

  status(): { status: Status; error: string | null } | null {
    return this.sql.exec<{ status: Status; error: string | null }>("SELECT status, error FROM evaluation").toArray()[0] ?? null;
  }

  setStatus(status: Status, error: string | null = null): void {
    this.sql.exec("UPDATE evaluation SET status = ?, error = ?", status, error);
  }

  /** The key of the gate that started this evaluation (null if none said, or before version 6). */
  gate(): string | null {
    return this.sql.exec<{ gate: string | null }>("SELECT gate FROM evaluation").toArray()[0]?.gate ?? null;
  }

  setGate(key: string): void {
    this.sql.exec("UPDATE evaluation SET gate = ?", key);
  }

  /** Results in the order they were recorded (replaying in any order gives the same tournament). */
  results(): JudgedCall[] {
    return this.sql
      .exec<{
        match: number;
        call: number;
        scores: string;
        expected: string | null;
        spread: string | null;
        unheld: string | null;
        parse_retried: number;
        endpoint: string | null;
        model: string | null;
        revision: string | null;
        seed: number | null;
        judge: string | null;
        votes: string | null;
        raw: string;
        prompt_tokens: number;
        completion_tokens: number;
      }>(
        "SELECT match, call, scores, expected, spread, unheld, parse_retried, endpoint, model, revision, seed, judge, votes, raw, prompt_tokens, completion_tokens FROM result ORDER BY seq",
      )
      .toArray()
      .map((r) => ({
        match: r.match,
        call: r.call,
        scores: JSON.parse(r.scores),
        expected: r.expected === null ? null : JSON.parse(r.expected),
        spread: r.spread === null ? null : JSON.parse(r.spread),
        unheld: r.unheld === null ? null : JSON.parse(r.unheld),
        parseRetried: r.parse_retried === 1,
        endpoint: r.endpoint,
        model: r.model,
        revision: r.revision,
        seed: r.seed,
        judge: r.judge,
        votes: r.votes === null ? null : JSON.parse(r.votes),
        raw: r.raw,
        promptTokens: r.prompt_tokens,
        completionTokens: r.completion_tokens,
      }));
  }

  resultCount(): number {
    this.recorded ??= this.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM result").one().n;
    return this.recorded;
  }

  /** The storage was emptied under this store (an erasure): what it kept in memory goes too. */
  emptied(): void {
    this.recorded = null;
    this.resultTokens = null;
    this.lastSeq = null;
  }

  /**
   * Drops the recorded calls of `match` that another judge than `judge` answered: a panel's match that
   * moved to `judge` ("cycle", src/core/match-judges.ts) is asked them again. What they cost stays in
   * the usage (their tokens move to the counter rows, in the same transaction); returns how many went.
   */
  dropCalls(match: number, judge: string): number {
    return this.storage.transactionSync(() => {
      const where = "match = ? AND (judge IS NULL OR judge <> ?)";
      const spent = this.sql
        .exec<{ p: number | null; s: number | null; c: number | null; n: number }>(
          `SELECT SUM(counted_prompt_tokens) AS p, SUM(counted_shared_tokens) AS s,
            SUM(CASE WHEN counted_prompt_tokens IS NULL THEN 0 ELSE completion_tokens END) AS c, COUNT(*) AS n FROM result WHERE ${where}`,
          match,
          judge,
        )
        .one();
      if (spent.n === 0) return 0;
      this.addAll({ promptTokens: spent.p ?? 0, sharedPrefixTokens: spent.s ?? 0, completionTokens: spent.c ?? 0 });
      this.sql.exec(`DELETE FROM result WHERE ${where}`, match, judge);
      this.recorded = null;
      this.resultTokens = null;
      return spent.n;
    });
  }

  /**
   * Records one result with the tokens it is counted for in the usage (one row: the result and its
   * cost land together or not at all); the primary key makes a second result for the same call
   * impossible.
   */
  saveResult(r: JudgedCall, counted: CallTokens): void {
    this.lastSeq ??= this.sql.exec<{ seq: number | null }>("SELECT MAX(seq) AS seq FROM result").one().seq ?? -1;
    const seq = this.lastSeq + 1;
    const count = this.resultCount();
    this.sql.exec(
      `INSERT INTO result (match, call, scores, expected, spread, unheld, parse_retried, endpoint, model, revision, seed, judge, votes, raw, prompt_tokens, completion_tokens, seq, counted_prompt_tokens, counted_shared_tokens)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      r.match,
      r.call,
      JSON.stringify(r.scores),
      r.expected === null ? null : JSON.stringify(r.expected),
      r.spread === null ? null : JSON.stringify(r.spread),
      r.unheld === null ? null : JSON.stringify(r.unheld),
      r.parseRetried ? 1 : 0,
      r.endpoint,
      r.model ?? null,
      r.revision ?? null,
      r.seed ?? null,
      r.judge ?? null,
      r.votes ? JSON.stringify(r.votes) : null,
      r.raw,
      r.promptTokens,
      r.completionTokens,
      seq,
      counted.promptTokens,
      counted.sharedPrefixTokens,
    );
    // after the insert: a refused one (the same call twice) counts nothing
    this.recorded = count + 1;
    this.lastSeq = seq;
    if (this.resultTokens) {
      this.resultTokens.promptTokens += counted.promptTokens;
      this.resultTokens.sharedPrefixTokens += counted.sharedPrefixTokens;
      this.resultTokens.completionTokens += counted.completionTokens;
    }
  }

  /** The feedback calls that have ended, in the order they did. */
  feedback(): JudgeFeedback[] {
    return this.sql
      .exec<{ answer_id: string; text: string | null; error: string | null; at: number }>(
        "SELECT answer_id, text, error, at FROM feedback ORDER BY rowid",
      )
      .toArray()
      .map((r) => ({ answerId: r.answer_id, text: r.text, error: r.error, at: r.at }));
  }

  /** Feedback calls that wrote feedback (a failed one is recorded, but is no call answered). */
  feedbackCalls(): number {
    return this.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM feedback WHERE text IS NOT NULL").one().n;
  }

  /** Records one answer's feedback call; the primary key makes a second record for the same answer impossible. */
  saveFeedback(f: JudgeFeedback, tokens: { promptTokens: number; completionTokens: number }): void {
    this.sql.exec(
      "INSERT INTO feedback (answer_id, text, error, at, prompt_tokens, completion_tokens) VALUES (?, ?, ?, ?, ?, ?)",
      f.answerId,
      f.text,
      f.error,
      f.at,
      tokens.promptTokens,
      tokens.completionTokens,
    );
  }

  /**
   * Removes one person's answer from an ended evaluation (a subject's erasure): its text and examinee
   * emptied, its id replaced by `placeholder`, its feedback deleted and the judge's replies of its
   * `matches` emptied. The results are kept, so the tournament still replays as it was played.
   */
  scrubAnswer(answerId: string, placeholder: string, matches: number[]): void {
    this.sql.exec("UPDATE answer SET id = ?, text = '', examinee = NULL WHERE id = ?", placeholder, answerId);
    this.sql.exec("DELETE FROM feedback WHERE answer_id = ?", answerId);
    for (const match of matches) this.sql.exec("UPDATE result SET raw = '' WHERE match = ?", match);
  }

  add(name: Counter, by: number): void {
    this.addAll({ [name]: by });
  }

  /** Several counters in one statement: a judge reply moves three of them, on every call. */
  addAll(by: Partial<Record<Counter, number>>): void {
    const rows = Object.entries(by).filter(([, n]) => n !== undefined && n !== 0) as [Counter, number][];
    if (rows.length === 0) return;
    this.sql.exec(
      `INSERT INTO counter (name, value) VALUES ${rows.map(() => "(?, ?)").join(", ")} ON CONFLICT (name) DO UPDATE SET value = value + excluded.value`,
      ...rows.flat(),
    );
  }

  /**
   * The usage's counters: the counter rows (retries, unreadable replies and what they cost, feedback
   * calls, and the tokens of results recorded before version 11) plus the tokens counted in the
   * result rows, summed once per object life and then kept up as results are saved.
   */
  counters(): Counters {
    const out: Counters = { retries: 0, parseFailures: 0, promptTokens: 0, completionTokens: 0, sharedPrefixTokens: 0 };
    for (const r of this.sql.exec<{ name: Counter; value: number }>("SELECT name, value FROM counter")) out[r.name] = r.value;
    this.resultTokens ??= this.sql
      .exec<{ promptTokens: number; sharedPrefixTokens: number; completionTokens: number }>(
        `SELECT COALESCE(SUM(counted_prompt_tokens), 0) AS promptTokens, COALESCE(SUM(counted_shared_tokens), 0) AS sharedPrefixTokens,
          COALESCE(SUM(CASE WHEN counted_prompt_tokens IS NULL THEN 0 ELSE completion_tokens END), 0) AS completionTokens FROM result`,
      )
      .one();
    out.promptTokens += this.resultTokens.promptTokens;
    out.sharedPrefixTokens += this.resultTokens.sharedPrefixTokens;
    out.completionTokens += this.resultTokens.completionTokens;
    return out;
  }
}
