/**
 * The names of the service's own settings: every variable of wrangler.toml, every secret, every
 * binding of `Env`, and the prefixes the service keeps for its settings. An endpoint's `apiKey` in
 * JUDGE_ENDPOINTS names a secret whose value is sent to that judge as a bearer token, so it must name
 * none of these: `"apiKey": "ADMIN_TOKEN"` would hand the admin token to whoever runs the judge.
 * A unit test checks this list against wrangler.toml and worker-configuration.d.ts.
 */
export const SETTING_NAMES: readonly string[] = [
  "ADMIN_TOKEN",
  "ALLOW_INSECURE_WEBHOOKS",
  "RATE_LIMIT_PER_MINUTE",
  "WAITING_FOR_HEADERS",
  "STREAMS_PER_KEY",
  "STREAM_KEY_CHECK_MS",
  "LIVE_READ_BYTES_PER_S",
  "LIVE_READ_BURST_BYTES",
  "METER_USAGE",
  "DB",
  "ASSETS",
  "TOURNAMENT",
  "COLLECTION",
  "JUDGE_GATE",
  "WEBHOOKS",
  "RATE_LIMITER",
];

/** A variable name that starts with one of these is the service's, whether it is read today or later. */
export const SETTING_PREFIXES: readonly string[] = ["JUDGE_", "WEBHOOK_", "COLLECTION_", "TOURNAMENT_", "ADMIN_", "PUBLIC_", "CF_", "LTI_"];

/** Whether `name` (compared in upper case, as an operator may not) is one of the service's own settings. */
export function isSettingName(name: string): boolean {
  const upper = name.toUpperCase();
  return SETTING_NAMES.includes(upper) || SETTING_PREFIXES.some((prefix) => upper.startsWith(prefix));
}
