import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ADMIN, gateIdle, request, uniqueTag, waitUntilDone } from "./helpers";

async function keyWith(body: Record<string, unknown>) {
  const r = await request("POST", "/v1/keys", { key: ADMIN, body });
  expect(r.status, JSON.stringify(r.json)).toBe(201);
  return r.json as { key: string; id: string };
}

/** Every line of the tenant's trail, page by page through the cursor, `limit` at a time. */
async function wholeTrail(key: string, query = "", limit = 3) {
  const lines: any[] = [];
  let cursor: string | null = null;
  do {
    const r = await request("GET", `/v1/audit?limit=${limit}${query}${cursor ? `&cursor=${cursor}` : ""}`, { key });
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    expect(r.json.data.length).toBeLessThanOrEqual(limit);
    lines.push(...r.json.data);
    cursor = r.json.nextCursor;
  } while (cursor);
  return lines;
}

describe("the audit trail", () => {
  it("records who graded, edited feedback, released, shared and rotated, by ids only, never a text", async () => {
    const tenant = uniqueTag("audited");
    const admin = await keyWith({ tenant, scopes: ["admin"], expiresAt: "2999-01-01T00:00:00Z" });
    const teacher = await keyWith({ tenant });
    const canary = `CANARY-${crypto.randomUUID()}`;
    const name = `Name-${crypto.randomUUID()}`;
    const posted = await request("POST", "/v1/evaluations", {
      key: teacher.key,
      body: {
        question: `Explain a stack. [tag:${uniqueTag("audit")}]`,
        maxScore: 10,
        judge: { scoreFrom: "text" },
        answers: [
          { id: "a1", text: `q=3 LIFO ${canary}`, examinee: name },
          { id: "a2", text: "q=8 LIFO" },
        ],
      },
    });
    expect(posted.status).toBe(202);
    const id = posted.json.id as string;
    expect((await waitUntilDone(id, teacher.key)).status).toBe("completed");

    const answer = `/v1/evaluations/${id}/answers/a1`;
    const steps: [string, string, unknown?][] = [
      ["PUT", `${answer}/grade`, { score: 4, note: `note ${canary}` }],
      ["DELETE", `${answer}/grade`],
      ["PUT", `${answer}/feedback`, { text: `Well done ${canary}` }],
      ["POST", `/v1/evaluations/${id}/release`, { answers: ["a1"] }],
      ["DELETE", `/v1/evaluations/${id}/release`, { answers: ["a1"] }],
      ["POST", `/v1/evaluations/${id}/share`],
      ["DELETE", `/v1/evaluations/${id}/share`],
      ["POST", "/v1/webhook-secret/rotate"],
    ];
    for (const [method, path, body] of steps) {
      const r = await request(method, path, { key: teacher.key, ...(body === undefined ? {} : { body }) });
      expect(r.status, `${method} ${path} ${JSON.stringify(r.json)}`).toBeLessThan(300);
    }
    // refused requests change nothing, and record nothing
    expect((await request("PUT", `${answer}/grade`, { key: teacher.key, body: { score: 99 } })).status).toBe(400);

    const lines = await wholeTrail(admin.key);
    expect(lines.map((l) => [l.who, l.what, l.evaluationId, l.answerId])).toEqual([
      ["admin", "key.create", null, null],
      ["admin", "key.create", null, null],
      [teacher.id, "grade.set", id, "a1"],
      [teacher.id, "grade.withdraw", id, "a1"],
      [teacher.id, "feedback.edit", id, "a1"],
      [teacher.id, "release", id, "a1"],
      [teacher.id, "release.withdraw", id, "a1"],
      [teacher.id, "share.create", id, null],
      [teacher.id, "share.revoke", id, null],
      [teacher.id, "webhook-secret.rotate", null, null],
    ]);
    // the key's creation with what it may do
    expect(lines[0]).toMatchObject({ keyId: admin.id, detail: { scopes: ["admin"], expiresAt: "2999-01-01T00:00:00.000Z" } });
    expect(lines[1]).toMatchObject({ keyId: teacher.id, detail: { scopes: ["read", "write"], expiresAt: null } });
    expect(lines.every((l) => !Number.isNaN(Date.parse(l.at)))).toBe(true);

    // neither the API's lines nor the table's rows hold a text, a note or a name
    const stored = await env.DB.prepare("SELECT * FROM audit_log WHERE tenant = ?").bind(tenant).all();
    expect(stored.results).toHaveLength(lines.length);
    for (const text of [JSON.stringify(lines), JSON.stringify(stored.results)]) {
      expect(text).not.toContain(canary);
      expect(text).not.toContain(name);
    }

    // from a time on; a read-only key, and a default one, may not read it
    const since = lines[5].at;
    expect((await wholeTrail(admin.key, `&since=${encodeURIComponent(since)}`)).map((l) => l.what)).toEqual(
      lines.filter((l) => l.at >= since).map((l) => l.what),
    );
    expect((await request("GET", "/v1/audit", { key: teacher.key })).status).toBe(403);
    const badSince = await request("GET", "/v1/audit?since=yesterday", { key: admin.key });
    expect(badSince.status).toBe(400);
    expect(badSince.json.errors[0].field).toBe("since");
    expect((await request("GET", "/v1/audit?cursor=nope!", { key: admin.key })).status).toBe(400);
    await gateIdle();
  });

  it("shows a tenant only its own lines, and records a key's revocation by the admin", async () => {
    const mine = uniqueTag("trail-a");
    const theirs = uniqueTag("trail-b");
    const admin = await keyWith({ tenant: mine, scopes: ["admin"] });
    const other = await keyWith({ tenant: theirs, scopes: ["admin"] });
    const doomed = await keyWith({ tenant: theirs, scopes: ["read"] });
    expect((await request("DELETE", `/v1/keys/${doomed.id}`, { key: ADMIN })).status).toBe(200);
    expect((await request("POST", "/v1/webhook-secret/rotate", { key: other.key })).status).toBe(201);

    const own = await wholeTrail(admin.key);
    expect(own.map((l) => [l.what, l.keyId])).toEqual([["key.create", admin.id]]);
    const theirLines = await wholeTrail(other.key);
    expect(theirLines.map((l) => [l.who, l.what, l.keyId])).toEqual([
      ["admin", "key.create", other.id],
      ["admin", "key.create", doomed.id],
      ["admin", "key.revoke", doomed.id],
      [other.id, "webhook-secret.rotate", null],
    ]);
    expect(theirLines[1].detail.scopes).toEqual(["read"]);
  });
});
