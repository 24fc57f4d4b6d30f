import { and, eq } from "drizzle-orm";
import type { Db } from "./database";
import { idempotencyKeys } from "./schema";

/** One Idempotency-Key of a scope (a tenant, the admin, a collection's answerers). */
export interface IdempotencyKey {
  scope: string;
  key: string;
}

const where = (k: IdempotencyKey) => and(eq(idempotencyKeys.tenant, k.scope), eq(idempotencyKeys.key, k.key));

/** Reserves the key for a request (by its hash); false if the key was already used. */
export async function reserveKey(db: Db, k: IdempotencyKey, requestHash: string, now: number): Promise<boolean> {
  const made = await db
    .insert(idempotencyKeys)
    .values({ tenant: k.scope, key: k.key, requestHash, createdAt: now })
    .onConflictDoNothing()
    .run();
  return made.meta.changes > 0;
}

/** What the key was used for: the request's hash, and its response once done (`status` null: in progress). */
export async function usedKey(db: Db, k: IdempotencyKey) {
  return (await db.query.idempotencyKeys.findFirst({ where: where(k) })) ?? null;
}

/** The request is done: its response is kept (`body` null: it carried a secret shown once). */
export async function completeKey(db: Db, k: IdempotencyKey, status: number, body: string | null): Promise<void> {
  await db.update(idempotencyKeys).set({ status, body }).where(where(k)).run();
}

/** The request failed: the key is free again, so it can be retried with it. */
export async function forgetKey(db: Db, k: IdempotencyKey): Promise<void> {
  await db.delete(idempotencyKeys).where(where(k)).run();
}
