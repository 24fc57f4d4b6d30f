import { eq, sql } from "drizzle-orm";
import { withAudit } from "../db/audit";
import { database } from "../db/database";
import { webhookSecrets } from "../db/schema";
import { newSecret } from "./sign";

/** How long the previous secret keeps signing next to the new one after a rotation. */
export const rotationGraceMs = 24 * 3_600_000;

/** Creates the tenant's signing secret if it has none; returns it only when it was created now. */
export async function createSecretIfMissing(env: Env, tenant: string): Promise<string | null> {
  const secret = newSecret();
  const made = await database(env.DB).insert(webhookSecrets).values({ tenant, secret, createdAt: Date.now() }).onConflictDoNothing().run();
  return made.meta.changes > 0 ? secret : null;
}

/**
 * A new secret for the tenant; the old one keeps signing alongside it for `rotationGraceMs`. `who`
 * asked is recorded in the audit trail in the same batch (the secret itself never is).
 */
export async function rotateSecret(env: Env, tenant: string, who: string, now = Date.now()): Promise<string> {
  const secret = newSecret();
  const db = database(env.DB);
  const rotate = db
    .insert(webhookSecrets)
    .values({ tenant, secret, createdAt: now })
    .onConflictDoUpdate({
      target: webhookSecrets.tenant,
      set: { previousSecret: sql`${webhookSecrets.secret}`, previousUntil: now + rotationGraceMs, secret, createdAt: now },
    });
  await withAudit(db, [rotate], [{ tenant, who, what: "webhook-secret.rotate", at: now }]);
  return secret;
}

/** The secrets a delivery is signed with now: the current one, and the previous one during its grace. */
export async function signingSecrets(env: Env, tenant: string, now = Date.now()): Promise<string[]> {
  const row = await database(env.DB).query.webhookSecrets.findFirst({ where: eq(webhookSecrets.tenant, tenant) });
  if (!row) return [];
  return row.previousSecret && (row.previousUntil ?? 0) > now ? [row.secret, row.previousSecret] : [row.secret];
}
