import { ProblemError } from "../platform/problems";
import { isLocalHost } from "./host";
/**
 * Where a webhook may be sent: the one policy, checked wherever a URL enters (the request schemas call
 * it) and again before each delivery (a URL stored before these rules, or by a path that skipped them,
 * is never sent). Pure.
 *
 * - Only https: the payload carries grades, and the signature protects integrity, not secrecy.
 *   `ALLOW_INSECURE_WEBHOOKS=true` (local development) also allows plain http to localhost or 127.0.0.1.
 * - No credentials (user:password@): they would be stored, logged and shown in the delivery log; the
 *   signature is how a receiver knows the sender.
 * - A public host: no loopback, private, link-local (the cloud metadata address) or reserved address,
 *   no name kept for local use (./host.ts); with `ALLOW_INSECURE_WEBHOOKS=true`, localhost and
 *   127.0.0.1 as written.
 * - An IP address only in its usual form: the URL parser reads 2130706433, 0x7f000001, 0177.0.0.1 and
 *   127.1 as 127.0.0.1, so a host that looks like a number hides where the webhook really goes.
 * - No spaces, control characters or backslashes: the parser drops or rewrites them, so the URL checked
 *   would not be the URL shown.
 * - At most `maxWebhookUrlChars` characters.
 */
import { maxWebhookUrlChars } from "../contract/limits";
export { maxWebhookUrlChars };

const publicOnly =
  "must name a public host: not localhost, a loopback, private, link-local or reserved address, nor a local name (.local, .internal)";

const httpOnlyLocally =
  "must be an https URL (plain http is allowed only to localhost or 127.0.0.1, and only with ALLOW_INSECURE_WEBHOOKS=true)";

export function webhookUrlProblem(text: string, allowInsecure: boolean): string | null {
  if (text.length === 0) return "must not be empty";
  if (text.length > maxWebhookUrlChars) return `must be at most ${maxWebhookUrlChars} characters`;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses
  if (/[\u0000-\u0020\u007f-\u009f\\]/.test(text)) return "must not contain spaces, control characters or backslashes";
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return "is not a URL";
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return httpOnlyLocally;
  if (url.username !== "" || url.password !== "")
    return "must not carry credentials (user:password@); receivers verify the signature instead";
  const written = writtenHost(text);
  if (isIpAddress(url.hostname) && written !== url.hostname) {
    return "must write an IP address host in its usual form (like 8.8.8.8), not as one number or in hex or octal";
  }
  if (allowInsecure && (written === "localhost" || written === "127.0.0.1")) return null;
  if (url.protocol !== "https:") return httpOnlyLocally;
  if (isLocalHost(url.hostname)) return publicOnly;
  return null;
}

/**
 * The refused webhook URLs of a request, by field, under the deployment's ALLOW_INSECURE_WEBHOOKS: the
 * check a route makes after its schema (which cannot see the setting).
 */
export function webhookUrlErrors(
  urls: [field: string, url: string | undefined][],
  allowInsecure: boolean,
): { field: string; reason: string }[] {
  return urls.flatMap(([field, url]) => {
    const reason = url === undefined ? null : webhookUrlProblem(url, allowInsecure);
    return reason ? [{ field, reason }] : [];
  });
}

/** The same check, thrown: a request with any refused URL is a 400 naming each field. */
export function refuseWebhookUrls(urls: [field: string, url: string | undefined][], allowInsecure: boolean): void {
  const errors = webhookUrlErrors(urls, allowInsecure);
  if (errors.length > 0) throw ProblemError.fields(errors);
}

/** The URL to show back (delivery log, collections): any `user:password@` removed. */
export function withoutCredentials(text: string): string {
  try {
    const url = new URL(text);
    if (url.username === "" && url.password === "") return text;
    url.username = "";
    url.password = "";
    return url.href;
  } catch {
    // not a URL the parser takes, yet it may still hold something like credentials: drop up to the last @
    return text.replace(/^([^:/?#]*:[/\\]*)[^/?#\\]*@/, "$1");
  }
}

/** The host as the text writes it (lower case), before the parser normalises it. */
function writtenHost(text: string): string {
  const afterScheme = text.replace(/^[A-Za-z][A-Za-z0-9+.-]*:\/*/, "");
  const authority = afterScheme.split(/[/?#]/, 1)[0];
  const hostPort = authority.slice(authority.lastIndexOf("@") + 1);
  const host = hostPort.startsWith("[") ? hostPort.slice(0, hostPort.indexOf("]") + 1) : hostPort.replace(/:[^:]*$/, "");
  return host.toLowerCase();
}

/** The parser writes an IPv4 host as four decimal parts and an IPv6 host in brackets. */
function isIpAddress(hostname: string): boolean {
  return /^\d+\.\d+\.\d+\.\d+$/.test(hostname) || hostname.startsWith("[");
}
