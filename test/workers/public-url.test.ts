import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { answers, newKey, uniqueTag, waitUntilDone } from "./helpers";

const FORGED = "attacker.example";

/** A request as a client that names another host would send it: in its URL (what the Worker sees) and its Host header. */
async function forged(method: string, path: string, options: { key?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { host: FORGED, ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  if (options.body !== undefined) headers["content-type"] = "application/json";
  const response = await (exports as unknown as { default: Fetcher }).default.fetch(
    new Request(`https://${FORGED}${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    }),
  );
  return { status: response.status, json: (await response.json()) as any };
}

// issue 23, item 15: the Host header was reflected into share URLs and the OpenAPI `servers` field
describe("absolute URLs are built on PUBLIC_URL, never on the request's Host", () => {
  it("the OpenAPI servers, a share link, a collection's embed snippets and a receipt", async () => {
    expect((await forged("GET", "/openapi.json")).json.servers).toEqual([{ url: "http://service.test" }]);

    const key = await newKey("forger");
    const created = await forged("POST", "/v1/evaluations", {
      key,
      body: { question: `Q [tag:${uniqueTag("host")}]`, answers: answers([3, 7]) },
    });
    expect(created.status).toBe(202);
    await waitUntilDone(created.json.id, key);
    const link = await forged("POST", `/v1/evaluations/${created.json.id}/share`, { key });
    expect(link.status).toBe(201);
    expect(link.json.url).toBe(`http://service.test/share/${link.json.token}`);

    const site = "https://school.example";
    const collection = await forged("POST", "/v1/collections", { key, body: { question: "Q", allowedOrigins: [site] } });
    expect(collection.status).toBe(201);
    for (const snippet of Object.values(collection.json.embed) as string[]) {
      expect(snippet).toContain("http://service.test/embed");
      expect(snippet).not.toContain(FORGED);
    }
    const read = await forged("GET", `/v1/collections/${collection.json.id}`, { key });
    expect(JSON.stringify(read.json)).not.toContain(FORGED);

    const answer = await forged("POST", `/v1/public/collections/${collection.json.publicToken}/answers`, {
      body: { text: "LIFO" },
      headers: { origin: site },
    });
    expect(answer.status).toBe(201);
    expect(answer.json.receiptUrl).toBe(`http://service.test/receipt/${answer.json.receiptToken}`);
    // a page on the forged host is not this service's own page: it may not post answers as if it were
    const fromForgedHost = await forged("POST", `/v1/public/collections/${collection.json.publicToken}/answers`, {
      body: { text: "LIFO" },
      headers: { origin: `https://${FORGED}` },
    });
    expect(fromForgedHost.status).toBe(403);
  });
});
