import { and, eq, sql } from "drizzle-orm";
import type { LatestRelease } from "../teacher/release";
import { withAudit } from "./audit";
import type { Db } from "./database";
import { answerReleases } from "./schema";

/** Appends one release or withdrawal per answer, all at `at`, with an audit line per answer, in one batch. */
export async function appendReleases(
  db: Db,
  row: { tenant: string; evaluationId: string; answerIds: readonly string[]; action: "released" | "withdrawn"; at: number },
  who: string,
): Promise<void> {
  if (row.answerIds.length === 0) return;
  // 6 columns a row, D1's 100 bound parameters a statement: 16 rows an insert
  const rows = row.answerIds.map((answerId) => ({
    tenant: row.tenant,
    evaluationId: row.evaluationId,
    answerId,
    action: row.action,
    at: row.at,
  }));
  const inserts = [];
  for (let i = 0; i < rows.length; i += 16) inserts.push(db.insert(answerReleases).values(rows.slice(i, i + 16)));
  const what = row.action === "released" ? "release" : "release.withdraw";
  const lines = row.answerIds.map(
    (answerId) => ({ tenant: row.tenant, who, what, at: row.at, evaluationId: row.evaluationId, answerId }) as const,
  );
  await withAudit(db, inserts, lines);
}

/** The latest release row of each answer of an evaluation that has one. */
export async function latestReleases(db: Db, evaluationId: string): Promise<Map<string, LatestRelease>> {
  const rows = await db
    .select({ answerId: answerReleases.answerId, action: answerReleases.action, at: answerReleases.at })
    .from(answerReleases)
    .where(
      and(
        eq(answerReleases.evaluationId, evaluationId),
        sql`${answerReleases.seq} = (SELECT MAX(u.seq) FROM answer_releases u
          WHERE u.evaluation_id = ${answerReleases.evaluationId} AND u.answer_id = ${answerReleases.answerId})`,
      ),
    );
  return new Map(rows.map((r) => [r.answerId, { action: r.action, at: r.at }]));
}
