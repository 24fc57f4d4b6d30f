import { and, asc, eq, lt } from "drizzle-orm";
import type { Db } from "./database";
import { ltiLogins, ltiPlatforms } from "./schema";

export type LtiPlatformRow = typeof ltiPlatforms.$inferSelect;

/** The tenant's platforms, oldest first. */
export function platformsOf(db: Db, tenant: string): Promise<LtiPlatformRow[]> {
  return db.select().from(ltiPlatforms).where(eq(ltiPlatforms.tenant, tenant)).orderBy(asc(ltiPlatforms.createdAt), asc(ltiPlatforms.id));
}

/** One of the tenant's platforms; another tenant's is not found, as if it did not exist. */
export async function platformOf(db: Db, tenant: string, id: string): Promise<LtiPlatformRow | null> {
  return (await db.query.ltiPlatforms.findFirst({ where: and(eq(ltiPlatforms.tenant, tenant), eq(ltiPlatforms.id, id)) })) ?? null;
}

/** The platforms with this issuer (a launch's), whatever their tenant. */
export function platformsByIssuer(db: Db, issuer: string): Promise<LtiPlatformRow[]> {
  return db.select().from(ltiPlatforms).where(eq(ltiPlatforms.issuer, issuer));
}

export async function platformById(db: Db, id: string): Promise<LtiPlatformRow | null> {
  return (await db.query.ltiPlatforms.findFirst({ where: eq(ltiPlatforms.id, id) })) ?? null;
}

/** The registration that holds this issuer and client id, in any tenant: what a 409 is about. */
export async function platformByIssuerClient(db: Db, issuer: string, clientId: string): Promise<LtiPlatformRow | null> {
  return (
    (await db.query.ltiPlatforms.findFirst({ where: and(eq(ltiPlatforms.issuer, issuer), eq(ltiPlatforms.clientId, clientId)) })) ?? null
  );
}

/** Records a login's state and nonce; logins long expired are dropped on the way (nothing else reads them). */
export async function insertLogin(db: Db, login: typeof ltiLogins.$inferInsert, now: number): Promise<void> {
  await db.batch([db.delete(ltiLogins).where(lt(ltiLogins.expiresAt, now)), db.insert(ltiLogins).values(login)]);
}

/**
 * Takes the login of `state` out, in one statement: of two launches racing with the same state, one
 * gets it and the other finds nothing. Returns it even when expired (the caller says so).
 */
export async function consumeLogin(db: Db, state: string): Promise<typeof ltiLogins.$inferSelect | null> {
  const [row] = await db.delete(ltiLogins).where(eq(ltiLogins.state, state)).returning();
  return row ?? null;
}
