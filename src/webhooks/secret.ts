import { newSecret } from "./sign";

/** How long the previous secret keeps signing next to the new one after a rotation. */
export const rotationGraceMs = 24 * 3_600_000;

/** Creates the tenant's signing secret if it has none; returns it only when it was created now. */
export async function createSecretIfMissing(env: Env, tenant: string): Promise<string | null> {
  const secret = newSecret();
  const made = await env.DB.prepare("INSERT INTO webhook_secrets (tenant, secret, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING")
    .bind(tenant, secret, Date.now())
    .run();
  return made.meta.changes > 0 ? secret : null;
}

/** A new secret for the tenant; the old one keeps signing alongside it for `rotationGraceMs`. */
export async function rotateSecret(env: Env, tenant: string, now = Date.now()): Promise<string> {
  const secret = newSecret();
  await env.DB.prepare(
    `INSERT INTO webhook_secrets (tenant, secret, created_at) VALUES (?1, ?2, ?3)
     ON CONFLICT (tenant) DO UPDATE SET previous_secret = secret, previous_until = ?4, secret = ?2, created_at = ?3`,
  )
    .bind(tenant, secret, now, now + rotationGraceMs)
    .run();
  return secret;
}

/** The secrets a delivery is signed with now: the current one, and the previous one during its grace. */
export async function signingSecrets(env: Env, tenant: string, now = Date.now()): Promise<string[]> {
  const row = await env.DB.prepare("SELECT secret, previous_secret, previous_until FROM webhook_secrets WHERE tenant = ?")
    .bind(tenant)
    .first<{ secret: string; previous_secret: string | null; previous_until: number | null }>();
  if (!row) return [];
  return row.previous_secret && (row.previous_until ?? 0) > now ? [row.secret, row.previous_secret] : [row.secret];
}
