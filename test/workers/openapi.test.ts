import { inject } from "vitest";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/api/app";
import { misfits, responseSchema } from "./documented";
import { ADMIN, answers, newKey, postEvaluation, request, until, waitUntilDone } from "./helpers";

describe("GET /openapi.json", () => {
  it("documents every /v1 route of the app: a route added without a declaration fails here", async () => {
    const doc = (await request("GET", "/openapi.json")).json;
    const documented = new Set(
      Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, operations]) =>
        Object.keys(operations).map((method) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ":$1")}`),
      ),
    );
    const routes = createApp()
      .routes.filter((r) => r.method !== "ALL" && r.path.startsWith("/v1"))
      .map((r) => `${r.method} ${r.path}`);
    expect(routes.length).toBeGreaterThan(0);
    expect(routes.filter((r) => !documented.has(r))).toEqual([]);
  });

  it("is served without a key, with this service as its server", async () => {
    const r = await request("GET", "/openapi.json");
    expect(r.status).toBe(200);
    expect(r.json.openapi).toBe("3.1.0");
    expect(r.json.servers).toEqual([{ url: "http://service.test" }]);
  });
});

/** One `curl` of the README or docs/: its method, path, body and whether it sends the admin token. */
interface Example {
  line: string;
  method: string;
  path: string;
  body: unknown;
  admin: boolean;
}

/** The curl examples of the README and docs/, in order, with their line continuations joined. */
function docExamples(docs: string): Example[] {
  const blocks = [...docs.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1].replace(/\\\n\s*/g, " "));
  const examples: Example[] = [];
  for (const block of blocks) {
    // a command runs to the end of its line, or, with a body, to the quote that closes it (JSON over lines)
    for (const m of block.matchAll(/curl [^\n]*?(?:-d '[^']*'[^\n]*|$)/gm)) {
      const line = m[0];
      const url = line.match(/localhost:8787(\/v1[^\s"')]*)/);
      if (!url) continue;
      const body = line.match(/-d '([\s\S]*?)'/)?.[1];
      examples.push({
        line: line.trim(),
        method: line.match(/-X (\w+)/)?.[1] ?? "GET",
        path: url[1],
        body: body === undefined ? undefined : JSON.parse(body),
        admin: line.includes("dev-admin-token"),
      });
    }
  }
  return examples;
}

describe("the examples of the README and docs/ against the service and the document", () => {
  it("replays every curl example of the README and docs/, and each answer fits the document's schema for it", async () => {
    const doc = (await request("GET", "/openapi.json")).json;
    const examples = docExamples(inject("docs"));
    expect(examples.length).toBeGreaterThanOrEqual(6);
    let key = "";
    let id = "";
    for (const example of examples) {
      const path = example.path.replace("$ID", id);
      if (example.path.includes("$ID")) {
        // the quick start waits for the result ("in about a second here"); so does the replay
        await until("completed", async () => (await request("GET", `/v1/evaluations/${id}`, { key })).json.status === "completed");
      }
      const r = await request(example.method, path, { key: example.admin ? ADMIN : key, body: example.body });
      expect(r.status, `${example.line}: ${JSON.stringify(r.json)}`).toBeLessThan(300);
      const schema = responseSchema(doc, example.method, path, r.status);
      if (schema) {
        expect(misfits(r.json, schema), example.line).toEqual([]);
      }
      if (example.path === "/v1/keys") key = r.json.key;
      if (example.path === "/v1/evaluations" && example.method === "POST") id = r.json.id;
    }
    expect(key).not.toBe("");
    expect(id).not.toBe("");
    // the document's examples are the docs' own requests
    for (const example of examples.filter((e) => e.body !== undefined)) {
      const template = Object.keys(doc.paths).find((t) =>
        new RegExp(`^${t.replace(/\{\w+\}/g, "[^/]+")}$`).test(example.path.replace("$ID", "x")),
      );
      const documented = doc.paths[template!][example.method.toLowerCase()].requestBody.content["application/json"].example;
      expect(documented, `${example.method} ${template}: the docs' example`).toEqual(example.body);
    }
  });
});

describe("the document names what the service answers", () => {
  it("every field of an ended evaluation, its settings and its answers and matches, is in GET /v1/evaluations/{id}'s schema", async () => {
    const doc = (await request("GET", "/openapi.json")).json;
    const key = await newKey("openapi-fields");
    const id = await postEvaluation(key, {
      question: "What is a stack?",
      reference: "A LIFO structure.",
      answers: answers([0.9, 0.4, 0.7, 0.2, 0.6]),
      tieBreak: "position",
      gradeBoundaries: [2.5, 4],
      extraCalls: 2,
      seed: 7,
      metadata: { course: "cs101" },
    });
    const result = await waitUntilDone(id, key);
    expect(result.status).toBe("completed");
    const schema = responseSchema(doc, "GET", `/v1/evaluations/${id}`, 200);
    expect(misfits(result, schema)).toEqual([]);

    // a pointwise one with a rubric and feedback for the students: their fields too
    const rubricId = await postEvaluation(key, {
      question: "What is a stack?",
      method: "individual",
      rubric: {
        criteria: [
          { name: "accuracy", maxScore: 3, description: "is it right" },
          { name: "clarity", maxScore: 2 },
        ],
      },
      feedback: "judge",
      answers: answers([0.9, 0.4, 0.7]),
    });
    const pointwise = await waitUntilDone(rubricId, key);
    expect(pointwise.status).toBe("completed");
    expect(misfits(pointwise, schema)).toEqual([]);
  });
});

describe("the document names what a tenant's day answers", () => {
  it("each answer of a batch, a collection, grades, releases, ratings and their reads fits its schema and names every field", async () => {
    const doc = (await request("GET", "/openapi.json")).json;
    const key = await newKey("openapi-day", ["read", "write", "admin"]);
    const checks: string[] = [];
    /** Sends one request and checks its answer against the document's schema for it; returns the answer. */
    const call = async (method: string, path: string, body?: unknown, headers?: Record<string, string>) => {
      const r = await request(method, path, { key, body, headers });
      expect(r.status, `${method} ${path}: ${JSON.stringify(r.json)}`).toBeLessThan(300);
      const schema = responseSchema(doc, method, path, r.status);
      if (schema) checks.push(...misfits(r.json, schema).map((p) => `${method} ${path}: ${p}`));
      return r.json;
    };
    const id = await postEvaluation(key, {
      question: "What is a stack?",
      answers: answers([0.9, 0.4, 0.7]).map((a, i) => ({ ...a, examinee: `student ${i}` })),
    });
    await waitUntilDone(id, key);
    const answerId = "s1";
    await call("PUT", `/v1/evaluations/${id}/answers/${answerId}/grade`, { score: 4, note: "fine" });
    await call("GET", `/v1/evaluations/${id}/answers/${answerId}/grade/history`);
    await call("PUT", `/v1/evaluations/${id}/answers/${answerId}/feedback`, { text: "Well argued." });
    await call("GET", `/v1/evaluations/${id}/answers/${answerId}/feedback/history`);
    await call("POST", `/v1/evaluations/${id}/release`, {});
    await call("GET", `/v1/evaluations/${id}`);
    await call("GET", "/v1/evaluations");
    const share = await call("POST", `/v1/evaluations/${id}/share`, { includeExaminee: true });
    await call("GET", `/v1/shared/${share.token}`);
    const rerun = await call("POST", `/v1/evaluations/${id}/rerun`, {});
    await waitUntilDone(rerun.id, key);
    await call("GET", `/v1/evaluations/${rerun.id}`);
    await call("GET", "/v1/meta");
    const batch = await call("POST", "/v1/batches", {
      items: [1, 2].map((k) => ({
        question: `Question ${k}?`,
        maxScore: 10,
        answers: answers([0.3, 0.8], `b${k}`).map((a, i) => ({ ...a, examinee: `model ${i}` })),
      })),
    });
    await until("the batch to end", async () =>
      (await request("GET", `/v1/batches/${batch.id}`, { key })).json.status === "completed" ? true : null,
    );
    await call("GET", `/v1/batches/${batch.id}`);
    await call("GET", `/v1/batches/${batch.id}/ratings`);
    await call("GET", `/v1/evaluations/${id}/deliveries`);
    await call("GET", "/v1/tenant/settings");
    const made = await call("POST", "/v1/tenant/keys", { scopes: ["read"] });
    await call("GET", "/v1/tenant/keys");
    await call("DELETE", `/v1/tenant/keys/${made.id}`);
    await call("POST", "/v1/webhook-secret/rotate", {});
    await call("POST", "/v1/evaluations?dryRun=true", { question: "Q?", answers: answers([0.2, 0.8]), extraCalls: 2, feedback: "judge" });
    await call("POST", "/v1/batches?dryRun=true", { items: [{ question: "Q?", answers: answers([0.2, 0.8]) }] });
    await call("DELETE", `/v1/evaluations/${id}/share`);
    await call("POST", `/v1/evaluations/${id}/release`, {});
    await call("GET", "/v1/judges");
    await call("GET", "/v1/audit");
    await call("POST", "/v1/ratings", {
      games: [
        { a: "m1", b: "m2", outcome: 1 },
        { a: "m2", b: "m3", outcome: 1 },
        { a: "m1", b: "m3", outcome: 0.5 },
      ],
    });
    const site = "https://course.example";
    const collection = await call("POST", "/v1/collections", {
      question: "What is a queue?",
      maxScore: 10,
      closing: { maxAnswers: 2 },
      allowedOrigins: [site],
      release: "auto",
    });
    const form = `/v1/public/collections/${collection.publicToken}`;
    await call("GET", form, undefined, { origin: site });
    const receipts: string[] = [];
    for (const n of [1, 2]) {
      const submitted = await call(
        "POST",
        `${form}/answers`,
        { text: `FIFO, q=${n + 5}`, name: `Student ${n}` },
        { origin: site, "cf-connecting-ip": `203.0.113.${n}` },
      );
      receipts.push(submitted.receiptToken);
    }
    const graded = await until("the collection's grading", async () => {
      const c = (await request("GET", `/v1/collections/${collection.id}`, { key })).json;
      return c.evaluation?.status === "completed" ? c : null;
    });
    expect(graded.answers.every((a: { finalScore?: number }) => typeof a.finalScore === "number")).toBe(true);
    await call("GET", `/v1/collections/${collection.id}`);
    await call("GET", "/v1/collections");
    await call("GET", `/v1/receipts/${receipts[0]}`);
    expect(checks).toEqual([]);
  });
});
