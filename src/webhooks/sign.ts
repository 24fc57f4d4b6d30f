import { Webhook } from "standardwebhooks";

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): `webhook-signature` is
 * `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">` under the secret's bytes, one entry per
 * secret, space-separated, so a receiver holding either the new or the previous secret during a
 * rotation can verify. The `standardwebhooks` package is pure JS (no node:crypto), so it runs in a Worker.
 */
export function newSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return `whsec_${btoa(String.fromCharCode(...bytes))}`;
}

export interface SignedHeaders {
  "webhook-id": string;
  "webhook-timestamp": string;
  "webhook-signature": string;
}

export function signedHeaders(secrets: string[], id: string, at: Date, body: string): SignedHeaders {
  return {
    "webhook-id": id,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": secrets.map((s) => new Webhook(s).sign(id, at, body)).join(" "),
  };
}
