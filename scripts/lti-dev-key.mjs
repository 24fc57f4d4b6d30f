// `npm start` on a machine with no LTI_PRIVATE_KEYS: a fresh RS256 key for the LTI tool, written once
// into .dev.vars (which git ignores), so the local tool keeps one identity across restarts and a test
// LMS that registered it keeps trusting it. In production the key is a secret (docs/lti.md).
import { exportJWK, generateKeyPair } from "jose";

/** A new private RSA JWK for signing RS256, with a kid that says when it was made. */
export async function newToolKey(now = new Date()) {
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  return {
    ...(await exportJWK(privateKey)),
    kid: `dev-${now.toISOString().slice(0, 10)}-${crypto.randomUUID().slice(0, 8)}`,
    alg: "RS256",
  };
}

/** Whether the .dev.vars text sets LTI_PRIVATE_KEYS to something. */
export function hasToolKeys(devVars) {
  return /^[ \t]*LTI_PRIVATE_KEYS[ \t]*=[ \t]*\S/m.test(devVars);
}

/**
 * The .dev.vars text with the key list set: an empty `LTI_PRIVATE_KEYS=` line (from .dev.vars.example)
 * is replaced, else a line is added. Single quotes keep the JSON's double quotes as they are.
 */
export function withToolKeys(devVars, keys) {
  const line = `LTI_PRIVATE_KEYS='${JSON.stringify(keys)}'`;
  if (/^[ \t]*LTI_PRIVATE_KEYS[ \t]*=[ \t]*$/m.test(devVars)) return devVars.replace(/^[ \t]*LTI_PRIVATE_KEYS[ \t]*=[ \t]*$/m, line);
  const text = devVars === "" || devVars.endsWith("\n") ? devVars : `${devVars}\n`;
  return `${text}${line}\n`;
}
