import { listDurableObjectIds, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";

/**
 * Finds a canary string everywhere the service keeps data: every D1 table (listed from sqlite_master,
 * so a table added later is read too) and the SQLite and key-value storage of every Durable Object of
 * every class. Each hit is named as docs/security.md's data map names places: `d1 table.column`,
 * `do Class table.column`, `do Class kv`.
 */
export async function placesHolding(canary: string): Promise<string[]> {
  const found = new Set<string>();
  for (const place of await d1Places(canary)) found.add(place);
  for (const [name, namespace] of objectNamespaces()) {
    for (const id of await listDurableObjectIds(namespace)) {
      const places = await runInDurableObject(namespace.get(id), (_instance: unknown, state: DurableObjectState) =>
        objectPlaces(state, name, canary),
      );
      for (const place of places) found.add(place);
    }
  }
  return [...found].sort();
}

/** Every Durable Object binding of the service, by its class name (wrangler.toml). */
function objectNamespaces(): [string, DurableObjectNamespace][] {
  const e = env as unknown as Record<string, DurableObjectNamespace>;
  return [
    ["Tournament", e.TOURNAMENT],
    ["Collection", e.COLLECTION],
    ["JudgeGate", e.JUDGE_GATE],
    ["WebhookDelivery", e.WEBHOOKS],
    ["RateLimiter", e.RATE_LIMITER],
    ["LtiScores", e.LTI_SCORES],
  ];
}

async function d1Places(canary: string): Promise<string[]> {
  const tables = await env.DB.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'",
  ).all<{ name: string }>();
  const places: string[] = [];
  for (const { name } of tables.results) {
    const rows = await env.DB.prepare(`SELECT * FROM "${name}"`).all<Record<string, unknown>>();
    for (const row of rows.results)
      for (const [column, value] of Object.entries(row)) if (holds(value, canary)) places.push(`d1 ${name}.${column}`);
  }
  return places;
}

async function objectPlaces(state: DurableObjectState, name: string, canary: string): Promise<string[]> {
  const places: string[] = [];
  const sql = state.storage.sql;
  const tables = sql
    .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'")
    .toArray();
  for (const table of tables) {
    for (const row of sql.exec<Record<string, SqlStorageValue>>(`SELECT * FROM "${table.name}"`)) {
      for (const [column, value] of Object.entries(row)) if (holds(value, canary)) places.push(`do ${name} ${table.name}.${column}`);
    }
  }
  for (const [key, value] of await state.storage.list())
    if (holds(key, canary) || holds(JSON.stringify(value), canary)) places.push(`do ${name} kv`);
  return places;
}

function holds(value: unknown, canary: string): boolean {
  if (value === null || value === undefined) return false;
  if (value instanceof ArrayBuffer) return new TextDecoder().decode(value).includes(canary);
  return String(value).includes(canary);
}

/** The places docs/security.md's data map lists: the first cell of each row between its markers. */
export function mappedPlaces(docs: string): Set<string> {
  const table = docs.match(/<!-- data-map:start -->([\s\S]*?)<!-- data-map:end -->/);
  if (!table) throw new Error("docs/security.md has no data map between its markers");
  return new Set([...table[1].matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]));
}
