import { z } from "zod";
import { problem, webhookEvents } from "../../contract";
import { requiredScope } from "../access";
import { erasablePath } from "../../model/erasure";
import { type DeclaredRoute, declaredRoutes } from "../routers";

type Json = Record<string, unknown>;

/** A zod schema as the JSON Schema of OpenAPI 3.1 (draft 2020-12), for what is sent or what is answered. */
function jsonSchema(schema: z.ZodType, io: "input" | "output"): Json {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as Json;
  return rest;
}

const REFUSAL: Record<number, string> = {
  400: "the request is malformed or a field is invalid (each named in `errors`)",
  401: "no key, or a key that is unknown, revoked or expired",
  403: "not allowed: the API key lacks the scope the operation needs (its security names it), or a site not allowed for a collection",
  404: "no such resource, or another tenant's",
  405: "a known path with another method (see the Allow header)",
  409: "not in a state for this (e.g. not completed yet)",
  410: "erased (POST …/erase): the problem's `erased` is the tombstone; a public link's page says it was removed",
  413: "the body is too large",
  415: "the body is not JSON",
  422: "an Idempotency-Key reused with another request (body or query)",
  429: "too many requests, or too many event streams open for this key (see Retry-After)",
  502: "a service this needs outside (the LMS of an LTI course) failed or refused; the detail gives its words",
  503: "the service cannot do it now (no judge configured, or try again)",
};

function operation(route: DeclaredRoute): Json {
  const pathParams = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  const parameters = [
    ...pathParams.map((name) => ({ name, in: "path", required: true, schema: { type: "string" } })),
    ...Object.entries(route.query ?? {}).map(([name, q]) => ({
      name,
      in: "query",
      required: false,
      description: q.description,
      schema: jsonSchema(q.schema, "input"),
    })),
    ...(route.method === "post" && route.auth !== "admin"
      ? [
          {
            name: "Idempotency-Key",
            in: "header",
            required: false,
            description: "a retry with the same key and body is answered once",
            schema: { type: "string", maxLength: 255 },
          },
        ]
      : []),
  ];
  const responses: Json = {};
  for (const [status, ok] of Object.entries(route.ok)) {
    responses[status] = ok.schema
      ? { description: ok.description, content: { "application/json": { schema: jsonSchema(ok.schema, "output") } } }
      : ok.mediaType
        ? { description: ok.description, content: { [ok.mediaType]: { schema: { type: "string" } } } }
        : { description: ok.description };
  }
  // a key's scope: a key with less (a read-only one on a writing route) is refused with 403
  const scope = route.auth === "key" ? requiredScope(route) : null;
  // every route of an evaluation, a batch or a collection answers 410 once it is erased (../gone.ts)
  const erasable = route.auth === "key" && erasablePath(route.path.replace(/\{(\w+)\}/g, "x")) !== null;
  const refusals = new Set([
    ...(route.refusals ?? []),
    ...(route.auth === "none" ? [] : [401]),
    ...(scope && scope !== "read" ? [403] : []),
    ...(pathParams.length ? [404] : []),
    ...(erasable ? [410] : []),
    405,
  ]);
  for (const status of [...refusals].sort()) responses[status] = { $ref: `#/components/responses/Problem${status}` };
  return {
    summary: route.summary,
    tags: [route.tag],
    operationId: `${route.method}${route.path.replace(/\{(\w+)\}/g, "By-$1").replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ""))}`,
    // OpenAPI 3.1 lets a bearer scheme list the roles it needs: here, the key's scope
    security: route.auth === "none" ? [] : [route.auth === "admin" ? { adminToken: [] } : { apiKey: [scope] }],
    ...(parameters.length ? { parameters } : {}),
    ...(route.body
      ? {
          requestBody: {
            required: !route.bodyOptional,
            content: {
              "application/json": { schema: jsonSchema(route.body, "input"), ...(route.example ? { example: route.example } : {}) },
            },
          },
        }
      : {}),
    responses,
  };
}

/** The OpenAPI 3.1 document of the API, generated from its routes' declarations and their zod schemas. */
export function openApiDocument(serverUrl: string, routes: readonly DeclaredRoute[] = declaredRoutes()): Json {
  const paths: Record<string, Json> = {};
  for (const route of routes) paths[route.path] = { ...paths[route.path], [route.method]: operation(route) };
  const problemResponses = Object.fromEntries(
    Object.entries(REFUSAL).map(([status, description]) => [
      `Problem${status}`,
      { description, content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } } },
    ]),
  );
  const signatureHeaders = {
    "webhook-id": { description: "the event's id (the same on every retry)", schema: { type: "string" } },
    "webhook-timestamp": { description: "Unix seconds when it was signed", schema: { type: "string" } },
    "webhook-signature": {
      description: "v1,<base64 HMAC-SHA256 of id.timestamp.body> with the tenant's whsec_ secret",
      schema: { type: "string" },
    },
  };
  const webhooks = Object.fromEntries(
    Object.entries(webhookEvents).map(([type, data]) => [
      type,
      {
        post: {
          summary: `${type}, signed as Standard Webhooks`,
          parameters: Object.entries(signatureHeaders).map(([name, h]) => ({ name, in: "header", required: true, ...h })),
          requestBody: {
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  required: ["type", "timestamp", "data"],
                  properties: { type: { const: type }, timestamp: { type: "string" }, data: jsonSchema(data, "output") },
                },
              },
            },
          },
          responses: { "2XX": { description: "received; anything else is retried with backoff" } },
        },
      },
    ]),
  );
  return {
    openapi: "3.1.0",
    info: {
      title: "knockout-judge",
      version: "1",
      description:
        "Grade free-text answers with an LLM judge by a knockout tournament of pairwise comparisons. Errors are application/problem+json (RFC 9457).",
    },
    servers: [{ url: serverUrl }],
    paths,
    webhooks,
    components: {
      schemas: { Problem: jsonSchema(problem, "output") },
      responses: problemResponses,
      securitySchemes: {
        apiKey: {
          type: "http",
          scheme: "bearer",
          description:
            "a tenant's API key (kj_…), from POST /v1/keys; an operation's security names the scope it needs (read < write < admin)",
        },
        adminToken: { type: "http", scheme: "bearer", description: "the service's ADMIN_TOKEN" },
      },
    },
  };
}
