import { Validator } from "@cfworker/json-schema";
import { expect } from "vitest";

/**
 * The paths of `value` that `schema` does not name: a key of an object whose schema lists its
 * properties but not this one. A loose object validates anything extra, so only this finds a field the
 * service sends and the document never mentions. Walks `anyOf`/`oneOf` branches that describe objects,
 * array items, and the values of a record (an object schema with no properties, its values' schema
 * in `additionalProperties`).
 */
export function undocumented(value: unknown, schema: any, path = "$"): string[] {
  if (schema === undefined || schema === true || value === null || typeof value !== "object") return [];
  const branches = [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])];
  if (branches.length > 0) {
    const each = branches.map((b: any) => undocumented(value, b, path));
    return each.find((list: string[]) => list.length === 0) ?? each[0];
  }
  if (Array.isArray(value)) return value.flatMap((v, i) => undocumented(v, schema.items, `${path}[${i}]`));
  const values = schema.additionalProperties;
  if (!schema.properties) {
    const isRecord = typeof values === "object" && Object.keys(values).length > 0;
    return isRecord ? Object.entries(value).flatMap(([k, v]) => undocumented(v, values, `${path}.${k}`)) : [];
  }
  return Object.entries(value).flatMap(([k, v]) =>
    k in schema.properties ? undocumented(v, schema.properties[k], `${path}.${k}`) : [`${path}.${k}`],
  );
}

/** How `value` misfits `schema`: each JSON Schema error, then each field the schema does not name. None: it fits. */
export function misfits(value: unknown, schema: any): string[] {
  const errors = new Validator(schema, "2020-12", false).validate(value).errors.map((e) => `${e.instanceLocation}: ${e.error}`);
  return [...errors, ...undocumented(value, schema)];
}

/** The document's schema of what `method path` answers with `status`, its path template matched. */
export function responseSchema(doc: any, method: string, path: string, status: number) {
  const template = Object.keys(doc.paths).find((t) => new RegExp(`^${t.replace(/\{\w+\}/g, "[^/]+")}$`).test(path.split("?")[0]));
  expect(template, `${method} ${path} is in the document`).toBeDefined();
  const operation = doc.paths[template!][method.toLowerCase()];
  expect(operation, `${method} ${template} is in the document`).toBeDefined();
  const response = operation.responses[String(status)];
  expect(response, `${method} ${template} documents ${status}`).toBeDefined();
  return response.content?.["application/json"]?.schema;
}
