import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/api/app";
import { ADMIN, answers, countRows, judgeLog, newKey, request, uniqueTag, until, waitUntilDone, releaseJudge } from "./helpers";
import { tournamentStub } from "../../src/platform/stubs";

describe("Idempotency-Key", () => {
  it("returns the same evaluation for the same key and body, and 422 for the same key with another body", async () => {
    const tenant = uniqueTag("idem");
    const key = await newKey(tenant);
    const body = { question: `Q [tag:${uniqueTag("idem")}]`, answers: answers([1, 2]), debias: false };
    const headers = { "idempotency-key": "order-42" };
    const first = await request("POST", "/v1/evaluations", { key, body, headers });
    expect(first.status).toBe(202);
    const before = await countRows("evaluations", tenant);
    const again = await request("POST", "/v1/evaluations", { key, body, headers });
    expect(again.status).toBe(202);
    expect(again.json).toEqual(first.json);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await countRows("evaluations", tenant)).toBe(before);

    const other = await request("POST", "/v1/evaluations", { key, body: { ...body, seed: 1 }, headers });
    expect(other.status).toBe(422);
    expect(other.headers.get("content-type")).toBe("application/problem+json");
    expect(other.json.detail).toMatch(/different request/);

    // a key is the tenant's own: another tenant's same key is a new request
    const stranger = await newKey("idem-other");
    const theirs = await request("POST", "/v1/evaluations", { key: stranger, body, headers });
    expect(theirs.status).toBe(202);
    expect(theirs.json.id).not.toBe(first.json.id);
    // without a key, every POST is new
    const plain = await request("POST", "/v1/evaluations", { key, body });
    expect(plain.json.id).not.toBe(first.json.id);
  });

  it("lets only one of two concurrent requests with the same key through; the other is replayed or told to retry", async () => {
    const tenant = uniqueTag("idem-race");
    const key = await newKey(tenant);
    const body = { question: `Q [tag:${uniqueTag("race")}]`, answers: answers([1, 2]) };
    const headers = { "idempotency-key": "race-1" };
    const before = await countRows("evaluations", tenant);
    const both = await Promise.all([1, 2, 3].map(() => request("POST", "/v1/evaluations", { key, body, headers })));
    for (const r of both) expect([202, 409]).toContain(r.status);
    expect(new Set(both.filter((r) => r.status === 202).map((r) => r.json.id)).size).toBe(1);
    for (const r of both.filter((r) => r.status === 409)) expect(r.headers.get("retry-after")).toBe("1");
    expect(await countRows("evaluations", tenant)).toBe(before + 1);
  });

  it("forgets a request that failed, so it can be retried with its key; refuses a malformed key", async () => {
    const key = await newKey("idem");
    const headers = { "idempotency-key": "retry-me" };
    const bad = await request("POST", "/v1/evaluations", { key, body: { question: "Q", answers: [] }, headers });
    expect(bad.status).toBe(400);
    const good = await request("POST", "/v1/evaluations", {
      key,
      body: { question: `Q [tag:${uniqueTag("i")}]`, answers: answers([1, 2]) },
      headers,
    });
    expect(good.status).toBe(202);
    const malformed = await request("POST", "/v1/evaluations", {
      key,
      body: { question: "Q", answers: answers([1, 2]) },
      headers: { "idempotency-key": "x".repeat(256) },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.json.errors[0].field).toBe("Idempotency-Key");
  });
});

/** Every row of every D1 table, as text: where a secret must not be found. */
async function everythingStored(): Promise<string> {
  const tables = await env.DB.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name != 'd1_migrations'",
  ).all<{ name: string }>();
  const rows = await Promise.all(
    tables.results.map(async ({ name }) => [name, (await env.DB.prepare(`SELECT * FROM "${name}"`).all()).results] as const),
  );
  return JSON.stringify(rows);
}

const idempotencyRows = async (key: string) =>
  (
    await env.DB.prepare("SELECT tenant, status, body FROM idempotency_keys WHERE key = ?")
      .bind(key)
      .all<{ tenant: string; status: number | null; body: string | null }>()
  ).results;

describe("Idempotency-Key on every POST route", () => {
  const origin = "https://school.example";
  async function openCollection(key: string) {
    const c = await request("POST", "/v1/collections", {
      key,
      body: { question: `Q [tag:${uniqueTag("col")}]`, allowedOrigins: [origin] },
    });
    expect(c.status).toBe(201);
    return c.json as { id: string; publicToken: string };
  }

  // issue 11, defect 5: a 300-character key was accepted on /v1/batches, /v1/collections and
  // /v1/webhook-secret/rotate, where the key was ignored altogether
  it("refuses a key longer than 255 characters on every POST route, before anything is done", async () => {
    // an admin key: the erase routes refuse any other with 403 before reading the Idempotency-Key
    const key = await newKey("idem-every", ["admin"]);
    const { publicToken } = await openCollection(key);
    const samples: [string, { key?: string; body: unknown; headers?: Record<string, string> }][] = [
      ["/v1/keys", { key: ADMIN, body: { tenant: "idem-every-new" } }],
      ["/v1/evaluations", { key, body: { question: "Q", answers: answers([1, 2]) } }],
      ["/v1/webhook-secret/rotate", { key, body: {} }],
      ["/v1/batches", { key, body: { items: [{ question: "Q", answers: answers([1, 2]) }] } }],
      ["/v1/ratings", { key, body: { games: [{ a: "x", b: "y", outcome: 1 }], bootstrap: false } }],
      ["/v1/evaluations/ev_x/share", { key, body: {} }],
      ["/v1/evaluations/ev_x/release", { key, body: {} }],
      ["/v1/evaluations/ev_x/rerun", { key, body: {} }],
      ["/v1/collections", { key, body: { question: "Q", allowedOrigins: [origin] } }],
      ["/v1/collections/col_x/close", { key, body: {} }],
      ["/v1/evaluations/ev_x/erase", { key, body: {} }],
      ["/v1/batches/b_x/erase", { key, body: {} }],
      ["/v1/collections/col_x/erase", { key, body: {} }],
      ["/v1/collections/col_x/lti-scores/retry", { key, body: {} }],
      ["/v1/subjects/erase", { key, body: { examinee: "nobody" } }],
      ["/v1/tenant/keys", { key, body: { scopes: ["read"] } }],
      [
        "/v1/lti/platforms",
        {
          key,
          body: {
            issuer: "https://lms.example.edu",
            clientId: "idem-every",
            deploymentIds: ["1"],
            authLoginUrl: "https://lms.example.edu/auth",
            accessTokenUrl: "https://lms.example.edu/token",
            jwksUrl: "https://lms.example.edu/jwks",
          },
        },
      ],
      [`/v1/public/collections/${publicToken}/answers`, { body: { text: "an answer" }, headers: { origin } }],
    ];
    // a POST route added to the API without a sample here fails this test. LTI's login and launch are
    // left out: they are an LMS's form posts through the browser, not an API client's requests, and a
    // launch is one use by design, so no Idempotency-Key is read there at all
    const postRoutes = createApp()
      .routes.filter((r) => r.method === "POST" && !r.path.startsWith("/lti/"))
      .map((r) => new RegExp(`^${r.path.replace(/:[^/]+/g, "[^/]+")}$`));
    for (const pattern of postRoutes) {
      expect(
        samples.some(([path]) => pattern.test(path)),
        `a sample for POST ${pattern}`,
      ).toBe(true);
    }
    const made = async () => ({
      ...Object.fromEntries(
        await Promise.all(
          [
            "api_keys",
            "evaluations",
            "batches",
            "collections",
            "collection_answers",
            "share_links",
            "idempotency_keys",
            "lti_platforms",
          ].map(async (t) => [t, await countRows(t)]),
        ),
      ),
      secret: (await env.DB.prepare("SELECT secret FROM webhook_secrets WHERE tenant = 'idem-every'").first<{ secret: string }>())!.secret,
    });
    const before = await made();
    for (const [path, options] of samples) {
      const r = await request("POST", path, { ...options, headers: { ...options.headers, "idempotency-key": "k".repeat(300) } });
      expect(r.status, path).toBe(400);
      expect(r.json.errors, path).toEqual([{ field: "Idempotency-Key", reason: "1 to 255 visible ASCII characters" }]);
    }
    expect(await made()).toEqual(before);
  });

  // issue 11, defect 5: the same key and body twice made two batches and two collections
  it("replays a batch, a collection, its closing and a rating for the same key and body, and is a 422 with another body", async () => {
    const key = await newKey("idem-replay");
    const cases: [string, unknown, unknown][] = [
      [
        "/v1/batches",
        { items: [{ question: `Q [tag:${uniqueTag("b")}]`, answers: answers([1, 2]), debias: false }] },
        { items: [{ question: "Q2", answers: answers([1, 2]) }] },
      ],
      ["/v1/collections", { question: "Q", allowedOrigins: [origin] }, { question: "Q?", allowedOrigins: [origin] }],
      [
        "/v1/ratings",
        { games: [{ a: "x", b: "y", outcome: 1 }], bootstrap: false },
        { games: [{ a: "x", b: "y", outcome: 0 }], bootstrap: false },
      ],
    ];
    for (const [path, body, other] of cases) {
      const headers = { "idempotency-key": `once-${path}` };
      const [batches, collections] = [await countRows("batches"), await countRows("collections")];
      const first = await request("POST", path, { key, body, headers });
      expect(first.status, path).toBeLessThan(300);
      const again = await request("POST", path, { key, body, headers });
      expect(again.status, path).toBe(first.status);
      // a collection's public token is not replayed (it is kept in no idempotency row): read it with GET
      expect(again.json, path).toEqual(path === "/v1/collections" ? { ...first.json, publicToken: null, embed: null } : first.json);
      expect(again.headers.get("idempotent-replayed"), path).toBe("true");
      expect((await countRows("batches")) - batches + (await countRows("collections")) - collections, path).toBe(
        path === "/v1/ratings" ? 0 : 1,
      );
      const different = await request("POST", path, { key, body: other, headers });
      expect(different.status, path).toBe(422);
    }
    const { id } = await openCollection(key);
    const headers = { "idempotency-key": "close-it" };
    const closed = await request("POST", `/v1/collections/${id}/close`, { key, body: {}, headers });
    expect(closed.status).toBe(200);
    const again = await request("POST", `/v1/collections/${id}/close`, { key, body: {}, headers });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.json).toEqual({ ...closed.json, publicToken: null, embed: null });
  });

  // issue 23, item 15: a collection's public token was kept in the clear in the replayed responses of
  // POST /v1/collections and its close, though the README said every token is kept as a hash
  it("keeps a collection's public token in no idempotency row: the replay has it null, the owner reads it with GET", async () => {
    const key = await newKey("idem-pc");
    const headers = { "idempotency-key": "make-collection" };
    const body = { question: `Q [tag:${uniqueTag("pc")}]`, allowedOrigins: [origin] };
    const made = await request("POST", "/v1/collections", { key, body, headers });
    expect(made.status).toBe(201);
    const token = made.json.publicToken as string;
    expect(token).toMatch(/^pc_/);
    await request("POST", `/v1/collections/${made.json.id}/close`, { key, body: {}, headers: { "idempotency-key": "close-collection" } });
    const kept = await env.DB.prepare("SELECT body FROM idempotency_keys WHERE tenant = 'idem-pc'").all<{ body: string }>();
    expect(kept.results).toHaveLength(2);
    for (const row of kept.results) expect(row.body).not.toContain(token);
    // where it is stored: the collection's own row, for its owner's embed snippets (a public identifier, see the README)
    const stored = JSON.parse(await everythingStored()) as [string, Record<string, unknown>[]][];
    const holding = stored.filter(([, rows]) => JSON.stringify(rows).includes(token)).map(([table]) => table);
    expect(holding).toEqual(["collections"]);
    const replay = await request("POST", "/v1/collections", { key, body, headers });
    expect(replay.json).toMatchObject({ id: made.json.id, publicToken: null, embed: null });
    expect((await request("GET", `/v1/collections/${made.json.id}`, { key })).json.publicToken).toBe(token);
  });

  // issue 11, defect 5: the same key twice made two secrets. A replay must not show the secret again:
  // it is kept in the clear only where signing needs it, never in the idempotency table
  it("rotates the webhook secret once for one key; the retry is a 409 that shows no secret and changes nothing", async () => {
    const key = await newKey("idem-rotate");
    const headers = { "idempotency-key": "rotate-1" };
    const first = await request("POST", "/v1/webhook-secret/rotate", { key, headers });
    expect(first.status).toBe(201);
    const secret = first.json.webhookSecret as string;
    const again = await request("POST", "/v1/webhook-secret/rotate", { key, headers });
    expect(again.status).toBe(409);
    expect(again.headers.get("content-type")).toBe("application/problem+json");
    expect(again.json.detail).toMatch(/already done.*shown only once.*new key/);
    expect(JSON.stringify(again.json)).not.toContain("whsec_");
    const row = await env.DB.prepare("SELECT secret FROM webhook_secrets WHERE tenant = ?").bind("idem-rotate").first<{ secret: string }>();
    expect(row!.secret).toBe(secret); // rotated once, not twice
    expect(await idempotencyRows("rotate-1")).toEqual([{ tenant: "idem-rotate", status: 201, body: null }]);
    // a new key is a new rotation
    const next = await request("POST", "/v1/webhook-secret/rotate", { key, headers: { "idempotency-key": "rotate-2" } });
    expect(next.status).toBe(201);
    expect(next.json.webhookSecret).not.toBe(secret);
  });

  it("issues one API key for one admin key; the retry is a 409 that shows no key, and the admin's keys are not a tenant's", async () => {
    const headers = { "idempotency-key": "issue-1" };
    const first = await request("POST", "/v1/keys", { key: ADMIN, body: { tenant: "idem-admin" }, headers });
    expect(first.status).toBe(201);
    const again = await request("POST", "/v1/keys", { key: ADMIN, body: { tenant: "idem-admin" }, headers });
    expect(again.status).toBe(409);
    expect(JSON.stringify(again.json)).not.toContain("kj_");
    expect((await env.DB.prepare("SELECT COUNT(*) AS n FROM api_keys WHERE tenant = 'idem-admin'").first<{ n: number }>())!.n).toBe(1);
    // the same key name used by a tenant is that tenant's own
    const mine = await request("POST", "/v1/webhook-secret/rotate", { key: first.json.key, headers });
    expect(mine.status).toBe(201);
    expect((await everythingStored()).includes(first.json.key)).toBe(false);
  });

  it("takes one answer for one key on a collection's public form; the retry is a 409 that shows no receipt token", async () => {
    const key = await newKey("idem-public");
    const { id, publicToken } = await openCollection(key);
    const headers = { origin, "idempotency-key": "answer-1" };
    const path = `/v1/public/collections/${publicToken}/answers`;
    const first = await request("POST", path, { body: { text: "LIFO" }, headers });
    expect(first.status).toBe(201);
    const again = await request("POST", path, { body: { text: "LIFO" }, headers });
    expect(again.status).toBe(409);
    expect(again.headers.get("access-control-allow-origin")).toBe(origin);
    expect(JSON.stringify(again.json)).not.toContain("rc_");
    expect((await request("GET", `/v1/collections/${id}`, { key })).json.answerCount).toBe(1);
    expect((await everythingStored()).includes(first.json.receiptToken)).toBe(false);
  });
});

describe("share tokens are kept as hashes only", () => {
  // issue 11, defect 8: POST /v1/evaluations/:id/share with an Idempotency-Key kept {"url","token"} in the
  // idempotency table, and a replay after a revoke returned the dead token with 201
  it("keeps no share token in the clear, not even for a retry with its Idempotency-Key: the retry is a 409, before and after a revoke", async () => {
    const key = await newKey("idem-share");
    const created = await request("POST", "/v1/evaluations", {
      key,
      body: { question: `Q [tag:${uniqueTag("sh")}]`, answers: answers([3, 7]) },
    });
    await waitUntilDone(created.json.id, key);
    const headers = { "idempotency-key": "share-1" };
    const link = await request("POST", `/v1/evaluations/${created.json.id}/share`, { key, headers });
    expect(link.status).toBe(201);
    const token = link.json.token as string;
    expect((await request("GET", `/v1/shared/${token}`)).status).toBe(200);
    expect(await idempotencyRows("share-1")).toEqual([{ tenant: "idem-share", status: 201, body: null }]);
    expect((await everythingStored()).includes(token)).toBe(false);

    const links = await countRows("share_links");
    const again = await request("POST", `/v1/evaluations/${created.json.id}/share`, { key, headers });
    expect(again.status).toBe(409);
    expect(again.json.detail).toMatch(/shown only once/);
    expect(JSON.stringify(again.json)).not.toContain("sh_");
    expect(await countRows("share_links")).toBe(links); // no second link either

    expect((await request("DELETE", `/v1/evaluations/${created.json.id}/share`, { key })).json.revoked).toBe(1);
    const afterRevoke = await request("POST", `/v1/evaluations/${created.json.id}/share`, { key, headers });
    expect(afterRevoke.status).toBe(409);
    expect(JSON.stringify(afterRevoke.json)).not.toContain(token);
  });

  it("blanks, by a migration, the share tokens earlier versions kept with an idempotent response", async () => {
    const insert = env.DB.prepare(
      "INSERT INTO idempotency_keys (tenant, key, request_hash, status, body, created_at) VALUES ('idem-old', ?, 'h', ?, ?, 0)",
    );
    await insert.bind("old-share", 201, JSON.stringify({ url: "http://service.test/share/sh_old_token", token: "sh_old_token" })).run();
    await insert.bind("old-evaluation", 202, JSON.stringify({ id: "ev_old", status: "queued" })).run();
    const migrations = (env as unknown as { TEST_MIGRATIONS: { name: string; queries: string[] }[] }).TEST_MIGRATIONS;
    const scrub = migrations.find((m) => m.name.includes("scrub_share_tokens"))!;
    for (const query of scrub.queries) await env.DB.prepare(query).run();
    expect(await idempotencyRows("old-share")).toEqual([{ tenant: "idem-old", status: 201, body: null }]);
    expect(await idempotencyRows("old-evaluation")).toEqual([
      { tenant: "idem-old", status: 202, body: JSON.stringify({ id: "ev_old", status: "queued" }) },
    ]);
  });
});

describe("limits", () => {
  it("refuses a body over the size limit with 413 problem+json, before parsing it", async () => {
    const key = await newKey("big");
    const r = await request("POST", "/v1/evaluations", {
      key,
      raw: `{"question": "${"x".repeat(9 * 1024 * 1024)}"}`,
      headers: { "content-type": "application/json" },
    });
    expect(r.status).toBe(413);
    expect(r.headers.get("content-type")).toBe("application/problem+json");
    expect(r.json.detail).toMatch(/larger than 8388608 bytes/);
  });

  it("names the field for a too-long answer, too many answers and oversized metadata", async () => {
    const key = await newKey("big");
    const long = await request("POST", "/v1/evaluations", {
      key,
      body: {
        question: "Q",
        answers: [
          { id: "a", text: "x".repeat(20_001) },
          { id: "b", text: "y" },
        ],
      },
    });
    expect(long.status).toBe(400);
    expect(long.json.errors).toEqual([{ field: "answers[0].text", reason: "must be at most 20000 characters" }]);
    const many = await request("POST", "/v1/evaluations", {
      key,
      body: { question: "Q", answers: answers(Array.from({ length: 257 }, () => 1)) },
    });
    expect(many.json.errors[0]).toEqual({ field: "answers", reason: "takes at most 256 answers" });
    const meta = await request("POST", "/v1/evaluations", {
      key,
      body: { question: "Q", answers: answers([1, 2]), metadata: { blob: "m".repeat(17_000) } },
    });
    expect(meta.json.errors[0].field).toBe("metadata");
  });

  it("rate-limits a key to its requests per minute with 429 and Retry-After; other keys are not affected", async () => {
    const issued = await request("POST", "/v1/keys", { key: ADMIN, body: { tenant: "limited", rateLimitPerMinute: 3 } });
    const key = issued.json.key;
    for (let i = 0; i < 3; i++) expect((await request("GET", "/v1/evaluations", { key })).status).toBe(200);
    const refused = await request("GET", "/v1/evaluations", { key });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("content-type")).toBe("application/problem+json");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(20);
    expect((await request("GET", "/v1/evaluations", { key: await newKey("limited") })).status).toBe(200);
  });
});

describe("DELETE /v1/evaluations/:id", () => {
  it("cancels a running evaluation: calls in flight are abandoned and nothing more is sent to the judge", async () => {
    const key = await newKey("canceller");
    const tag = uniqueTag("cancel");
    // round 1 of 8 answers, not debiased, paired by rounds: exactly 4 calls (within the test's cap of
    // requests open at the judge), 3 answered, 1 held, and no later match until the round is in
    const created = await request("POST", "/v1/evaluations", {
      key,
      body: {
        question: `Q [tag:${tag}] [hold-after:3]`,
        answers: answers([3, 8, 1, 6, 4, 7, 2, 5]),
        seed: 5,
        debias: false,
        pairing: "round",
      },
    });
    const id = created.json.id;
    await until("3 answered and the rest held", async () => (await judgeLog(tag)).length === 4);
    // the three replies streamed in and recorded (a streamed reply takes a moment after its arrival)
    await until("3 results recorded", async () => (await request("GET", `/v1/evaluations/${id}`, { key })).json.usage.judgeCalls === 3);

    const cancelled = await request("DELETE", `/v1/evaluations/${id}`, { key });
    expect(cancelled.status).toBe(200);
    expect(cancelled.json).toEqual({ id, status: "cancelled" });
    const stub = tournamentStub(env, id);
    expect(await runInDurableObject(stub, (_i: unknown, state: DurableObjectState) => state.storage.getAlarm())).toBeNull();

    // the held calls now break off; a live evaluation would retry them, a cancelled one must not
    await releaseJudge(tag);
    const read = await waitUntilDone(id, key);
    expect(read.status).toBe("cancelled");
    expect(read.usage.judgeCalls).toBe(3);
    expect(read.matches.flatMap((m: { calls: unknown[] }) => m.calls)).toHaveLength(3);
    await new Promise((r) => setTimeout(r, 300)); // longer than any retry backoff in tests
    expect(await judgeLog(tag)).toHaveLength(4);

    expect((await request("DELETE", `/v1/evaluations/${id}`, { key })).status).toBe(200); // again: a no-op
  });

  it("refuses to cancel a finished evaluation with 409", async () => {
    const key = await newKey("canceller");
    const created = await request("POST", "/v1/evaluations", {
      key,
      body: { question: `Q [tag:${uniqueTag("done")}]`, answers: answers([1, 2]) },
    });
    await waitUntilDone(created.json.id, key);
    const r = await request("DELETE", `/v1/evaluations/${created.json.id}`, { key });
    expect(r.status).toBe(409);
    expect(r.json.detail).toMatch(/already completed/);
  });
});

describe("GET /v1/evaluations", () => {
  it("lists the tenant's evaluations newest first, a page at a time, with an opaque cursor", async () => {
    const key = await newKey(`lister-${uniqueTag("t")}`);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await request("POST", "/v1/evaluations", {
        key,
        body: { question: `Q${i} [tag:${uniqueTag("l")}]`, answers: answers([1, 2]), metadata: { i } },
      });
      ids.push(r.json.id);
    }
    const seen: { id: string; createdAt: string }[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const r = await request("GET", `/v1/evaluations?limit=2${cursor ? `&cursor=${cursor}` : ""}`, { key });
      expect(r.status).toBe(200);
      expect(r.json.data.length).toBeLessThanOrEqual(2);
      seen.push(...r.json.data);
      cursor = r.json.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    // each exactly once, newest first (evaluations made in the same millisecond: by id, descending)
    expect(seen.map((e) => e.id).sort()).toEqual([...ids].sort());
    const key_ = (e: { id: string; createdAt: string }) => `${e.createdAt}|${e.id}`;
    expect(seen.map(key_)).toEqual(seen.map(key_).sort().reverse());
    const first = await request("GET", "/v1/evaluations?limit=1", { key });
    expect(first.json.data[0]).toMatchObject({ id: seen[0].id, method: "knockout", metadata: { i: expect.any(Number) } });

    for (const q of ["limit=0", "limit=101", "limit=x", "cursor=nonsense!", "cursor=eyJ4IjoxfQ"]) {
      const r = await request("GET", `/v1/evaluations?${q}`, { key });
      expect(r.status, q).toBe(400);
    }
    // issue 23, item 15: `?limit=0x10` was read as 16 (Number("0x10")); a query's numbers are decimal
    for (const q of ["limit=0x1", "limit=1e0", "limit=%201", "limit=%2B1", "limit=1.0", "limit=0b1"]) {
      for (const path of ["/v1/evaluations", "/v1/collections"]) {
        const r = await request("GET", `${path}?${q}`, { key });
        expect(r.status, `${path}?${q}`).toBe(400);
        expect(r.json.errors, `${path}?${q}`).toEqual([{ field: "limit", reason: "an integer from 1 to 100, in decimal digits" }]);
      }
    }
    expect((await request("GET", "/v1/evaluations?limit=01", { key })).json.data).toHaveLength(1);
  });
});
