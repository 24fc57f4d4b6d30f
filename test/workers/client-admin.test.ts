// The typed client's erase, audit, retention, rerun, release, feedback, export, key and LTI platform methods against the
// real service: the client's fetch is this Worker's, the evaluations are graded by the test judge server.
import { exports } from "cloudflare:workers";
import { afterAll, describe, expect, it } from "vitest";
import { ApiProblem, type ExportLine, knockoutJudge } from "../../src/client";
import { answers, gateIdle, newKey, uniqueTag, until } from "./helpers";

const worker = (exports as unknown as { default: Fetcher }).default;
const client = (key: string) =>
  knockoutJudge({ baseUrl: "http://service.test", key, attempts: 1, fetch: (url, init) => worker.fetch(new Request(url, init)) });

/** The refusal a client call throws (fails the test when it does not throw one). */
async function refusal(promise: Promise<unknown>): Promise<ApiProblem> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiProblem);
  return err as ApiProblem;
}

/** A completed evaluation made through the client, and its id. */
async function completed(api: ReturnType<typeof client>, examinee?: string) {
  const { id } = await api.createEvaluation({
    question: `What is a stack? [tag:${uniqueTag("client-admin")}]`,
    maxScore: 10,
    answers: answers([3, 8, 5]).map((a, i) => ({ ...a, ...(examinee && i === 0 ? { examinee } : {}) })),
  });
  const done = await until(`evaluation ${id} to end`, async () => {
    const e = await api.evaluation(id);
    return e.status === "queued" || e.status === "running" ? null : e;
  });
  expect(done.status).toBe("completed");
  return id;
}

const collect = async (lines: AsyncIterable<ExportLine>) => {
  const all: ExportLine[] = [];
  for await (const line of lines) all.push(line);
  return all;
};

afterAll(() => gateIdle());

describe("the typed client's admin and teacher methods", () => {
  it("erases an evaluation, a batch and a collection; reading one after throws the 410 with its tombstone", async () => {
    const tenant = uniqueTag("client-erase");
    const api = client(await newKey(tenant, ["read", "write", "admin"]));
    const evaluation = await completed(api);
    const erased = await api.eraseEvaluation(evaluation);
    expect(erased).toEqual({ id: evaluation, status: "erased", erasedAt: expect.any(String), by: expect.any(String) });
    const gone = await refusal(api.evaluation(evaluation));
    expect(gone.status).toBe(410);
    expect(gone.problem?.erased).toEqual(erased);

    const batch = await api.createBatch({ items: [{ question: `Q [tag:${uniqueTag("client-batch")}]`, answers: answers([2, 6]) }] });
    expect((await api.eraseBatch(batch.id)).status).toBe("erased");
    expect((await refusal(api.batch(batch.id))).status).toBe(410);

    const collection = await api.createCollection({ question: "What is a queue?", allowedOrigins: ["https://course.example"] });
    expect((await api.eraseCollection(collection.id)).status).toBe("erased");
    expect((await refusal(api.collection(collection.id))).status).toBe(410);

    // a key without the admin scope is refused, and the refusal is thrown, not retried into a 200
    const writer = client(await newKey(tenant));
    expect((await refusal(writer.eraseEvaluation(evaluation))).status).toBe(403);
  });

  it("erases one person across the tenant, and exports the tenant and a person as parsed NDJSON lines", async () => {
    const api = client(await newKey(uniqueTag("client-subject"), ["read", "write", "admin"]));
    const examinee = `Ana ${crypto.randomUUID().slice(0, 8)}`;
    const evaluation = await completed(api, examinee);

    const tenantLines = await collect(api.exportTenant());
    expect(tenantLines.filter((l) => l.type === "evaluation").map((l) => l.id)).toEqual([evaluation]);
    expect(tenantLines.filter((l) => l.type === "answer" && l.evaluationId === evaluation)).toHaveLength(3);
    const personLines = await collect(api.exportSubject(examinee));
    expect(personLines.filter((l) => l.type === "answer").map((l) => l.id)).toEqual(["s1"]);
    // a bad examinee is the service's 400, thrown when the loop starts
    expect((await refusal(collect(api.exportSubject("")))).problem?.errors?.[0]?.field).toBe("examinee");

    const touched = await api.eraseSubject({ examinee });
    expect(touched.evaluations).toEqual([{ id: evaluation, answers: ["s1"] }]);
    expect(touched.recomputed).toBe(false);
    expect((await api.evaluation(evaluation)).answers.map((a) => a.id).sort()).toEqual(["s2", "s3"]);
  });

  it("round-trips the tenant's retention, and reads the audit trail page by page, from `since`", async () => {
    const tenant = uniqueTag("client-settings");
    const api = client(await newKey(tenant, ["read", "write", "admin"]));
    expect((await api.tenantSettings()).retentionDays).toBeNull();
    const set = await api.setTenantSettings({ retentionDays: 30 });
    expect(set.retentionDays).toBe(30);
    expect(await api.tenantSettings()).toEqual(set);
    expect((await api.setTenantSettings({ retentionDays: null })).retentionDays).toBeNull();
    const bad = await refusal(api.setTenantSettings({ retentionDays: 0 }));
    expect(bad.status).toBe(400);
    expect(bad.problem?.errors?.[0]?.field).toBe("retentionDays");

    // the key's making, then the two changes: one line a page, through each page's cursor
    const lines = [];
    let page = await api.audit({ limit: 1 });
    for (;;) {
      expect(page.data).toHaveLength(1);
      lines.push(...page.data);
      if (page.nextCursor === null) break;
      page = await api.audit({ limit: 1, cursor: page.nextCursor });
    }
    expect(lines.map((l) => [l.what, l.detail?.retentionDays])).toEqual([
      ["key.create", undefined],
      ["settings.change", 30],
      ["settings.change", null],
    ]);
    // `since` is inclusive: from the first line's time on, every line
    expect((await api.audit({ since: lines[0].at })).data.map((l) => l.id)).toEqual(lines.map((l) => l.id));
    expect((await api.audit({ since: "2999-01-01T00:00:00Z" })).data).toEqual([]);
    expect((await refusal(api.audit({ since: "yesterday" }))).problem?.errors?.[0]?.field).toBe("since");
  });

  it("reruns an evaluation, edits an answer's feedback, releases it and withdraws the release", async () => {
    const api = client(await newKey(uniqueTag("client-teacher")));
    const evaluation = await completed(api);
    const rerun = await api.rerunEvaluation(evaluation);
    expect(rerun).toEqual({ id: expect.any(String), status: "queued", rerunOf: evaluation });
    expect(rerun.id).not.toBe(evaluation);
    expect((await api.evaluation(rerun.id)).id).toBe(rerun.id);

    const edited = await api.setFeedback(evaluation, "s1", { text: "You named LIFO." });
    expect(edited).toEqual({ answerId: "s1", feedback: { text: "You named LIFO.", from: "teacher", editedAt: expect.any(String) } });

    const one = await api.releaseAnswers(evaluation, { answers: ["s1"] });
    expect([one.released, one.of, one.answers.map((a) => a.id)]).toEqual([1, 3, ["s1"]]);
    // no body: every answer
    expect((await api.releaseAnswers(evaluation)).released).toBe(3);
    const withdrawn = await api.withdrawRelease(evaluation, { answers: ["s2"] });
    expect([withdrawn.released, withdrawn.answers[0].releasedAt]).toEqual([2, null]);
    expect((await api.withdrawRelease(evaluation)).released).toBe(0);
  });

  it("makes, lists and revokes the tenant's own keys, and registers, changes and removes an LTI platform", async () => {
    const api = client(await newKey(uniqueTag("client-keys"), ["read", "write", "admin"]));
    const made = await api.createKey({ scopes: ["read"] });
    expect(made).toMatchObject({ scopes: ["read"], collectionId: null, expiresAt: null, key: expect.stringMatching(/^kj_/) });
    expect((await client(made.key).tenantSettings()).retentionDays).toBeNull();
    expect((await api.keys()).keys.map((k) => k.id)).toContain(made.id);
    expect((await api.revokeKey(made.id)).id).toBe(made.id);
    expect((await refusal(client(made.key).tenantSettings())).status).toBe(401);
    expect((await refusal(api.revokeKey("no-such-key"))).status).toBe(404);

    const issuer = `https://lms-${uniqueTag("client-lti")}.example`;
    const platform = await api.registerLtiPlatform({
      issuer,
      clientId: "client-1",
      deploymentIds: ["1"],
      authLoginUrl: `${issuer}/auth`,
      accessTokenUrl: `${issuer}/token`,
      jwksUrl: `${issuer}/jwks`,
    });
    expect((await api.ltiPlatforms()).data.map((p) => p.id)).toEqual([platform.id]);
    expect((await api.changeLtiPlatform(platform.id, { deploymentIds: ["1", "2"] })).deploymentIds).toEqual(["1", "2"]);
    expect((await api.ltiPlatform(platform.id)).deploymentIds).toEqual(["1", "2"]);
    expect(await api.deleteLtiPlatform(platform.id)).toEqual({ id: platform.id, deleted: true });
    expect((await refusal(api.ltiPlatform(platform.id))).status).toBe(404);
  });
});
