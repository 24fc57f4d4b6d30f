/**
 * Where a webhook may be sent. Only https: the payload carries grades, and the signature protects
 * integrity, not secrecy. `ALLOW_INSECURE_WEBHOOKS=true` (local development) also allows plain http to
 * this machine. Credentials in the URL are refused: they would be stored, logged and shown in the
 * delivery log; the signature is how a receiver knows the sender.
 */
export function webhookUrlProblem(text: string, allowInsecure: boolean): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return "is not a URL";
  }
  if (url.username !== "" || url.password !== "") return "must not carry credentials (user:password@); receivers verify the signature instead";
  if (url.protocol === "https:") return null;
  const local = url.hostname === "localhost" || url.hostname === "127.0.0.1";
  if (url.protocol === "http:" && allowInsecure && local) return null;
  return allowInsecure ? "must be https, or http to localhost or 127.0.0.1" : "must be an https URL (http is allowed only to localhost with ALLOW_INSECURE_WEBHOOKS=true)";
}
