/** An answer of one person, found by examinee or by answer id, in a tenant's evaluations. */
export interface PersonAnswer {
  evaluationId: string;
  answerId: string;
  status: string;
  batchId: string | null;
}

/** The tenant's answers of one person: by their examinee, or by their answer id. */
export async function answersOfPerson(
  d1: D1Database,
  tenant: string,
  by: { examinee?: string; answerId?: string },
): Promise<PersonAnswer[]> {
  const column = by.examinee !== undefined ? "a.examinee" : "a.answer_id";
  const rows = await d1
    .prepare(
      `SELECT a.evaluation_id AS evaluationId, a.answer_id AS answerId, e.status AS status, e.batch_id AS batchId
       FROM answers a JOIN evaluations e ON e.id = a.evaluation_id WHERE e.tenant = ? AND ${column} = ?`,
    )
    .bind(tenant, by.examinee ?? by.answerId)
    .all<PersonAnswer>();
  return rows.results;
}

/** The tenant's collection answers submitted under `name`, with the evaluation that graded each (if any). */
export async function submissionsOfPerson(d1: D1Database, tenant: string, name: string) {
  const rows = await d1
    .prepare(
      `SELECT s.collection_id AS collectionId, s.answer_id AS answerId, c.evaluation_id AS evaluationId
       FROM collection_answers s JOIN collections c ON c.id = s.collection_id WHERE c.tenant = ? AND s.name = ?`,
    )
    .bind(tenant, name)
    .all<{ collectionId: string; answerId: string; evaluationId: string | null }>();
  return rows.results;
}

/** The matches of an evaluation that the answer played in. */
export async function matchesOf(d1: D1Database, evaluationId: string, answerId: string): Promise<number[]> {
  const rows = await d1
    .prepare("SELECT idx FROM matches WHERE evaluation_id = ?1 AND (a = ?2 OR b = ?2)")
    .bind(evaluationId, answerId)
    .all<{ idx: number }>();
  return rows.results.map((r) => r.idx);
}

/**
 * Removes one answer from an evaluation in D1: its row (text, examinee, grade, feedback), its teacher
 * grades, releases and feedback edits go; in its matches, in their judge calls' orders and as the
 * champion its id becomes `placeholder`, and the judge's replies of its matches are emptied. What the
 * others got stays as it was decided.
 */
export async function scrubAnswerRows(d1: D1Database, evaluationId: string, answerId: string, placeholder: string): Promise<void> {
  const each = (sql: string) => d1.prepare(sql).bind(evaluationId, answerId, placeholder);
  await d1.batch([
    // Before the renames below, which it finds the answer's matches by. Each call is rewritten field by
    // field (its order's ids compared whole, its text emptied), never by a replace() over the whole
    // calls JSON: the judge's words may contain the id and would be changed, not erased.
    each(SCRUB_CALLS),
    each("UPDATE matches SET a = ?3 WHERE evaluation_id = ?1 AND a = ?2"),
    each("UPDATE matches SET b = ?3 WHERE evaluation_id = ?1 AND b = ?2"),
    each("UPDATE matches SET winner = ?3 WHERE evaluation_id = ?1 AND winner = ?2"),
    each("UPDATE evaluations SET champion = ?3 WHERE id = ?1 AND champion = ?2"),
    // the audit trail keeps its lines; the answer they named goes
    each("UPDATE audit_log SET answer_id = NULL WHERE evaluation_id = ?1 AND answer_id = ?2 AND ?3 IS NOT NULL"),
    ...["answers", "teacher_grades", "answer_releases", "feedback_edits"].map((table) =>
      each(`DELETE FROM ${table} WHERE evaluation_id = ?1 AND answer_id = ?2 AND ?3 IS NOT NULL`),
    ),
  ]);
}

/**
 * The answer's matches (?1 the evaluation, ?2 the answer, ?3 its placeholder) with their calls rebuilt in
 * call order: each call's `raw` emptied and, in its `order`, the answer's id made the placeholder.
 */
const SCRUB_CALLS = `
  UPDATE matches SET calls = (
    SELECT json_group_array(
      json_set(c.value,
        '$.raw', '',
        '$.order', json((SELECT json_group_array(CASE WHEN o.value = ?2 THEN ?3 ELSE o.value END ORDER BY o.key)
                         FROM json_each(c.value, '$.order') o)))
      ORDER BY c.key)
    FROM json_each(matches.calls) c)
  WHERE evaluation_id = ?1 AND (a = ?2 OR b = ?2) AND ?3 IS NOT NULL`;

/** Removes one submitted answer of a collection; its receipt answers 410 from now on. */
export async function deleteSubmission(d1: D1Database, collectionId: string, answerId: string): Promise<void> {
  await d1.batch([
    d1
      .prepare(
        "INSERT INTO erased_tokens (token_hash, erasure_id) SELECT receipt_hash, collection_id FROM collection_answers WHERE collection_id = ? AND answer_id = ? ON CONFLICT DO NOTHING",
      )
      .bind(collectionId, answerId),
    d1.prepare("DELETE FROM collection_answers WHERE collection_id = ? AND answer_id = ?").bind(collectionId, answerId),
  ]);
}

/** A learner as LTI launches know them: their `sub`, in one platform or in any of the tenant's. */
export interface LtiUser {
  platformId?: string;
  sub: string;
}

const learnerWhere = (u: LtiUser) => `l.sub = ?2${u.platformId !== undefined ? " AND l.platform_id = ?3" : ""}`;
const learnerBinds = (tenant: string, u: LtiUser) => (u.platformId !== undefined ? [tenant, u.sub, u.platformId] : [tenant, u.sub]);

/** The tenant's collection answers given by an LTI learner, with the evaluation that graded each (if any). */
export async function submissionsOfLearner(d1: D1Database, tenant: string, user: LtiUser) {
  const rows = await d1
    .prepare(
      `SELECT l.collection_id AS collectionId, l.answer_id AS answerId, c.evaluation_id AS evaluationId
       FROM lti_learners l JOIN collections c ON c.id = l.collection_id
       WHERE c.tenant = ?1 AND l.answer_id IS NOT NULL AND ${learnerWhere(user)}`,
    )
    .bind(...learnerBinds(tenant, user))
    .all<{ collectionId: string; answerId: string; evaluationId: string | null }>();
  return rows.results;
}

/**
 * Removes what the LTI tables hold of a learner in the tenant: their rows (the platform's id of them,
 * their name) and their pages' sessions. Found by `sub`, or, for an erasure by examinee, by the name the
 * platform sent (the name their collection answers carry).
 */
export async function deleteLearnerRows(d1: D1Database, tenant: string, by: { user: LtiUser } | { name: string }): Promise<void> {
  const ofTenant = "collection_id IN (SELECT id FROM collections WHERE tenant = ?1)";
  if ("name" in by) {
    await d1.batch([
      d1.prepare(`DELETE FROM lti_learners WHERE ${ofTenant} AND name = ?2`).bind(tenant, by.name),
      d1.prepare("DELETE FROM lti_sessions WHERE tenant = ?1 AND name = ?2").bind(tenant, by.name),
    ]);
    return;
  }
  const platform = by.user.platformId !== undefined ? " AND platform_id = ?3" : "";
  const binds = learnerBinds(tenant, by.user);
  await d1.batch([
    d1.prepare(`DELETE FROM lti_learners WHERE ${ofTenant} AND sub = ?2${platform}`).bind(...binds),
    d1.prepare(`DELETE FROM lti_sessions WHERE tenant = ?1 AND sub = ?2${platform}`).bind(...binds),
  ]);
}
