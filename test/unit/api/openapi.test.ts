import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { openApiDocument } from "../../../src/api/openapi/document";

describe("the OpenAPI document", () => {
  it("is valid OpenAPI 3.1", async () => {
    const doc = openApiDocument("https://grading.example");
    const validator = new Validator();
    const result = await validator.validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("describes the request bodies with the schemas that validate them, problem+json refusals and the webhooks", () => {
    const doc = openApiDocument("https://grading.example") as any;
    const post = doc.paths["/v1/evaluations"].post;
    const body = post.requestBody.content["application/json"].schema;
    expect(body.required).toEqual(["question", "answers"]);
    expect(body.properties.debias.anyOf).toEqual([{ type: "boolean" }, { type: "string", const: "adaptive" }]);
    expect(body.properties.answers.maxItems).toBe(256);
    expect(post.responses["400"]).toEqual({ $ref: "#/components/responses/Problem400" });
    expect(doc.components.responses.Problem401.content["application/problem+json"]).toBeDefined();
    expect(Object.keys(doc.webhooks)).toEqual([
      "evaluation.completed",
      "evaluation.failed",
      "batch.completed",
      "evaluation.released",
      "collection.released",
    ]);
    expect(doc.webhooks["evaluation.completed"].post.parameters.map((p: { name: string }) => p.name)).toEqual([
      "webhook-id",
      "webhook-timestamp",
      "webhook-signature",
    ]);
    expect(doc.paths["/v1/meta"].get.security).toEqual([]);
    expect(doc.paths["/v1/keys"].post.security).toEqual([{ adminToken: [] }]);
    // a key's route names the scope it needs, and one that needs more than read says it may refuse with 403
    expect(doc.paths["/v1/evaluations/{id}"].get.security).toEqual([{ apiKey: ["read"] }]);
    expect(doc.paths["/v1/evaluations/{id}"].get.responses["403"]).toBeUndefined();
    expect(doc.paths["/v1/evaluations/{id}/answers/{answerId}/grade"].put.security).toEqual([{ apiKey: ["write"] }]);
    expect(doc.paths["/v1/evaluations/{id}/answers/{answerId}/grade"].put.responses["403"]).toEqual({
      $ref: "#/components/responses/Problem403",
    });
    expect(doc.paths["/v1/audit"].get.security).toEqual([{ apiKey: ["admin"] }]);
  });
});
