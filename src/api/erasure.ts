import { Hono } from "hono";
import { erased } from "../contract";
import { erase } from "../evaluations/erasure";
import type { ErasureKind } from "../model/erasure";
import type { App } from "./context";
import { route } from "./route";

/**
 * The erase routes, one per kind of thing a tenant owns, mounted at /v1: each removes every text, name,
 * id of a person, grade, feedback and judge reply of it, everywhere the service keeps them
 * (docs/security.md, the data map), and leaves a tombstone that every other route answers 410 with.
 */
export const erasures = new Hono<App>();

const kinds: [ErasureKind, string, string][] = [
  ["evaluation", "evaluations", "Erase an evaluation: its answers, grades, feedback and judge replies (a running one is cancelled first)"],
  ["batch", "batches", "Erase a batch with every one of its questions"],
  ["collection", "collections", "Erase a collection: its submitted answers, names, receipts and the evaluation that graded them"],
];

for (const [kind, plural, summary] of kinds) {
  route(
    erasures,
    {
      method: "post",
      path: `/${plural}/:id/erase`,
      summary,
      tag: "erasure",
      auth: "key",
      // erasing cannot be undone: only the tenant's admin keys may
      scope: "admin",
      ok: { 200: { description: "the tombstone: the same answer every time", schema: erased } },
    },
    async (c) => c.json(await erase(c.env, c.get("tenant"), kind, c.req.param("id"), c.get("keyId"))),
  );
}
