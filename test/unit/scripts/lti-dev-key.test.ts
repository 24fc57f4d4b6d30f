import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain ESM script without types; its functions are tested as npm start runs them
import { hasToolKeys, newToolKey, withToolKeys } from "../../../scripts/lti-dev-key.mjs";
import { parseToolKeys } from "../../../src/lti/tool-keys";

describe("npm start's LTI key", () => {
  it("makes a private RSA key the service takes as LTI_PRIVATE_KEYS", async () => {
    const key = await newToolKey(new Date("2026-06-01T00:00:00Z"));
    expect(key.kid).toMatch(/^dev-2026-06-01-/);
    const parsed = parseToolKeys(JSON.stringify([key]));
    expect("keys" in parsed && parsed.keys.map((k) => k.kid)).toEqual([key.kid]);
  });

  it("writes it into .dev.vars once: an empty line filled, else one added; a set one is kept", () => {
    const keys = [{ kid: "k" }];
    expect(withToolKeys("ADMIN_TOKEN=x\nLTI_PRIVATE_KEYS=\n", keys)).toBe(`ADMIN_TOKEN=x\nLTI_PRIVATE_KEYS='[{"kid":"k"}]'\n`);
    expect(withToolKeys("ADMIN_TOKEN=x", keys)).toBe(`ADMIN_TOKEN=x\nLTI_PRIVATE_KEYS='[{"kid":"k"}]'\n`);
    expect(withToolKeys("", keys)).toBe(`LTI_PRIVATE_KEYS='[{"kid":"k"}]'\n`);
    expect(hasToolKeys("LTI_PRIVATE_KEYS=\n")).toBe(false);
    expect(hasToolKeys(withToolKeys("", keys))).toBe(true);
  });
});
