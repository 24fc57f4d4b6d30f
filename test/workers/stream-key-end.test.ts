import { describe, expect, it } from "vitest";
import { ADMIN, answers, firstEvent, gateIdle, newKey, openStream, releaseJudge, request, uniqueTag } from "./helpers";

const SITE = "https://course.example";

/** The rest of the stream's text, to its end: what a viewer still holding it gets. */
async function rest(response: Response): Promise<string> {
  const reader = response.body!.getReader();
  let text = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return text;
    text += new TextDecoder().decode(value);
  }
}

// a security tester's finding: a revoked key's open stream kept receiving the answers submitted after
describe("an event stream lasts no longer than the key it was opened with", () => {
  it("ends a revoked key's collection stream (the next STREAM_KEY_CHECK_MS), which then reopens as a 401; other keys' stay", async () => {
    const tenant = uniqueTag("revoked-stream");
    const owner = await newKey(tenant, ["read", "write", "admin"]);
    const assistant = await request("POST", "/v1/tenant/keys", { key: owner, body: { scopes: ["read"] } });
    expect(assistant.status).toBe(201);
    const collection = await request("POST", "/v1/collections", { key: owner, body: { question: "Q", allowedOrigins: [SITE] } });
    expect(collection.status).toBe(201);
    const path = `/v1/collections/${collection.json.id}/events`;

    const theirs = await openStream(path, assistant.json.key);
    expect(theirs.status).toBe(200);
    expect(await firstEvent(theirs)).toMatch(/^event: snapshot$/m);
    const mine = await openStream(path, owner);
    expect(await firstEvent(mine)).toMatch(/^event: snapshot$/m);

    expect((await request("DELETE", `/v1/tenant/keys/${assistant.json.id}`, { key: owner })).status).toBe(200);
    // the revoked key's stream ends by itself, saying why in a comment, with no event after the revocation
    const after = await rest(theirs);
    expect(after).toContain(": this stream ends: its API key no longer holds (unknown API key)");
    expect(after).not.toMatch(/^event: /m);

    const submitted = await request("POST", `/v1/public/collections/${collection.json.publicToken}/answers`, {
      body: { text: "Submitted after the revocation.", name: "Grace" },
      headers: { origin: SITE, "cf-connecting-ip": "203.0.113.77" },
    });
    expect(submitted.status).toBe(201);
    // the owner's stream, opened with a key that still holds, goes on
    const ownerReader = mine.body!.getReader();
    let seen = "";
    while (!/^event: answer\ndata: .*\n\n/m.test(seen)) {
      const { value, done } = await ownerReader.read();
      if (done) break;
      seen += new TextDecoder().decode(value);
    }
    const answer = JSON.parse(seen.match(/^event: answer\ndata: (.*)$/m)![1]);
    expect(answer).toMatchObject({ answer: { name: "Grace", text: "Submitted after the revocation." } });
    await ownerReader.cancel();

    const again = await openStream(path, assistant.json.key);
    expect(again.status).toBe(401);
    expect(again.headers.get("content-type")).toBe("application/problem+json");
    await again.body?.cancel();
  });

  it("ends an evaluation's stream opened with an expiring key (an LTI instructor's) at its expiresAt; reopening is a 401", async () => {
    const tenant = uniqueTag("expiring-stream");
    const expiresAt = new Date(Date.now() + 3_000);
    const made = await request("POST", "/v1/keys", { key: ADMIN, body: { tenant, expiresAt: expiresAt.toISOString() } });
    expect(made.status).toBe(201);
    const key: string = made.json.key;
    const tag = uniqueTag("expiring");
    // held by the judge after its first call, so the evaluation is still running when the key expires
    const evaluation = await request("POST", "/v1/evaluations", {
      key,
      body: { question: `Q [tag:${tag}] [hold-after:0]`, answers: answers([1, 2]) },
    });
    expect(evaluation.status).toBe(202);
    const path = `/v1/evaluations/${evaluation.json.id}/events`;
    const stream = await openStream(path, key);
    expect(stream.status).toBe(200);
    expect(await firstEvent(stream)).toMatch(/^event: snapshot$/m);

    const after = await rest(stream);
    expect(Date.now()).toBeGreaterThanOrEqual(expiresAt.getTime());
    expect(after).toContain(`: this stream ends: its API key no longer holds (this API key expired at ${expiresAt.toISOString()})`);
    expect(after).not.toMatch(/^event: end$/m);

    const again = await openStream(path, key);
    expect(again.status).toBe(401);
    expect(((await again.json()) as { detail: string }).detail).toBe(`this API key expired at ${expiresAt.toISOString()}`);
    await releaseJudge(tag);
    await gateIdle();
  });
});
