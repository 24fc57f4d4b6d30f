import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor } from "../../../src/api/cursor";
import { defaults, readConfig } from "../../../src/platform/config";
import { take } from "../../../src/limits/token-bucket";
import { defaultRetryPolicy } from "../../../src/platform/config";
import { afterAttempt } from "../../../src/webhooks/schedule";
import { newSecret, signedHeaders } from "../../../src/webhooks/sign";
import { webhookUrlProblem } from "../../../src/webhooks/url";

describe("token bucket", () => {
  it("allows perMinute at once, then one more per 60/perMinute seconds", () => {
    let bucket = null;
    for (let i = 0; i < 5; i++) {
      const t = take(bucket, 5, 1_000);
      expect(t.allowed).toBe(true);
      bucket = t.bucket;
    }
    const refused = take(bucket, 5, 1_000);
    expect(refused).toMatchObject({ allowed: false, retryAfterMs: 12_000 });
    expect(take(refused.bucket, 5, 1_000 + 6_000)).toMatchObject({ allowed: false, retryAfterMs: 6_000 });
    expect(take(refused.bucket, 5, 1_000 + 12_000).allowed).toBe(true);
    // a long pause refills to the burst, not beyond
    let later = take(refused.bucket, 5, 10_000_000).bucket;
    expect(later.tokens).toBe(4);
    for (let i = 0; i < 4; i++) later = take(later, 5, 10_000_000).bucket;
    expect(take(later, 5, 10_000_000).allowed).toBe(false);
  });
});

describe("webhook retry schedule", () => {
  const p = { baseMs: 1_000, capMs: 8_000, windowMs: 60_000 };
  it("delivers on 2xx, stops on 410, retries everything else", () => {
    for (const status of [200, 201, 204, 299]) expect(afterAttempt(p, { n: 1, status, firstAt: 0, now: 0 }).kind).toBe("delivered");
    expect(afterAttempt(p, { n: 1, status: 410, firstAt: 0, now: 0 }).kind).toBe("gone");
    for (const status of [null, 301, 400, 404, 429, 500, 503])
      expect(afterAttempt(p, { n: 1, status, firstAt: 0, now: 0 }).kind).toBe("retry");
  });
  it("backs off exponentially with jitter in [0.5, 1) of the step, capped", () => {
    const at = (n: number, r: number) => (afterAttempt(p, { n, status: 500, firstAt: 0, now: 0 }, () => r) as { at: number }).at;
    expect([1, 2, 3, 4, 5, 6].map((n) => at(n, 0))).toEqual([500, 1_000, 2_000, 4_000, 4_000, 4_000]);
    expect([1, 2, 3, 4, 5].map((n) => at(n, 0.999999))).toEqual([1_000, 2_000, 4_000, 8_000, 8_000]);
  });
  it("gives up after the window; the default window is more than a day", () => {
    expect(afterAttempt(p, { n: 9, status: 500, firstAt: 0, now: 55_000 }, () => 0.9).kind).toBe("expired");
    expect(defaultRetryPolicy.windowMs).toBeGreaterThan(24 * 3_600_000);
    // with the defaults, how many attempts a receiver that never answers gets, and over how long
    let now = 0;
    let n = 0;
    for (;;) {
      n++;
      const v = afterAttempt(defaultRetryPolicy, { n, status: 500, firstAt: 0, now }, () => 0.5);
      if (v.kind !== "retry") break;
      now = v.at;
    }
    expect(now).toBeGreaterThan(24 * 3_600_000);
    expect(n).toBeGreaterThan(15);
    expect(n).toBeLessThan(40);
  });
});

describe("Standard Webhooks signature", () => {
  it("is v1,<base64 HMAC-SHA256 of id.timestamp.body> under the secret's bytes, one entry per secret", () => {
    const secret = newSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const at = new Date(1_700_000_000_123);
    const h = signedHeaders([secret, `whsec_${Buffer.from("previous-secret-bytes!!").toString("base64")}`], "msg_1", at, '{"a":1}');
    expect(h["webhook-timestamp"]).toBe("1700000000");
    const expected = createHmac("sha256", Buffer.from(secret.slice(6), "base64"))
      .update('msg_1.1700000000.{"a":1}')
      .digest("base64");
    const entries = h["webhook-signature"].split(" ");
    expect(entries).toHaveLength(2);
    expect(entries[0]).toBe(`v1,${expected}`);
    expect(entries[1]).not.toBe(entries[0]);
  });
});

describe("webhook URLs", () => {
  it("accepts https; http only to localhost when insecure is allowed; never credentials", () => {
    expect(webhookUrlProblem("https://hooks.example.com/x?y=1", false)).toBeNull();
    expect(webhookUrlProblem("http://127.0.0.1:8080/x", false)).toMatch(/https/);
    expect(webhookUrlProblem("http://127.0.0.1:8080/x", true)).toBeNull();
    expect(webhookUrlProblem("http://localhost/x", true)).toBeNull();
    expect(webhookUrlProblem("http://10.0.0.1/x", true)).toMatch(/localhost or 127.0.0.1/);
    expect(webhookUrlProblem("https://a:b@example.com/", true)).toMatch(/credentials/);
    expect(webhookUrlProblem("https://a@example.com/", false)).toMatch(/credentials/);
    expect(webhookUrlProblem("file:///etc/passwd", true)).not.toBeNull();
    expect(webhookUrlProblem("::", false)).toBe("is not a URL");
  });
});

describe("cursor", () => {
  it("round-trips and refuses anything it did not make", () => {
    const p = { createdAt: 1_763_000_000_000, id: "ev_abc" };
    expect(decodeCursor(encodeCursor(p))).toEqual(p);
    expect(encodeCursor(p)).toMatch(/^[A-Za-z0-9_-]+$/);
    for (const bad of ["", "!!", "eyJ4IjoxfQ", btoa("[1]"), btoa('[-1,"x"]'), btoa('[1.5,"x"]'), btoa("[1,2]"), "a".repeat(300)])
      expect(decodeCursor(bad)).toBeNull();
  });
});

describe("config", () => {
  it("reads the judge deadline and structured outputs, with documented defaults", () => {
    const base = { DB: null, TOURNAMENT: null } as never;
    expect(readConfig(base).judge.deadlineMs).toBe(30 * 60_000);
    expect(readConfig(base).judge.timeoutMs).toBe(120_000);
    expect(readConfig(base).parseAttempts).toBe(5);
    expect(readConfig(base).structuredOutputs).toBe(false);
    const set = readConfig({ JUDGE_DEADLINE_MS: "5000", JUDGE_TIMEOUT_MS: "700", JUDGE_STRUCTURED_OUTPUTS: "true" } as never);
    expect([set.judge.deadlineMs, set.judge.timeoutMs, set.structuredOutputs]).toEqual([5000, 700, true]);
    expect(defaults.deadlineMs).toBeGreaterThan(defaults.timeoutMs);
  });

  it("runs 4 evaluations per judge slot unless JUDGE_MAX_RUNNING says otherwise; a bad value is the default", () => {
    expect(readConfig({} as never).maxRunning).toBe(64);
    expect(readConfig({ JUDGE_MAX_CONCURRENCY: "5" } as never).maxRunning).toBe(20);
    expect(readConfig({ JUDGE_MAX_RUNNING: "3" } as never).maxRunning).toBe(3);
    expect(readConfig({ JUDGE_MAX_RUNNING: "many" } as never).maxRunning).toBe(64);
    expect(readConfig({ JUDGE_MAX_RUNNING: "-2" } as never).maxRunning).toBe(64);
  });

  it("reads a run's first 5 s as watched unless TOURNAMENT_LIVE_GRACE_MS says otherwise; 0 is allowed, a bad value is the default", () => {
    expect(readConfig({} as never).liveGraceMs).toBe(5_000);
    expect(readConfig({ TOURNAMENT_LIVE_GRACE_MS: "" } as never).liveGraceMs).toBe(5_000);
    expect(readConfig({ TOURNAMENT_LIVE_GRACE_MS: "0" } as never).liveGraceMs).toBe(0);
    expect(readConfig({ TOURNAMENT_LIVE_GRACE_MS: "1500" } as never).liveGraceMs).toBe(1500);
    expect(readConfig({ TOURNAMENT_LIVE_GRACE_MS: "-1" } as never).liveGraceMs).toBe(5_000);
    expect(readConfig({ TOURNAMENT_LIVE_GRACE_MS: "soon" } as never).liveGraceMs).toBe(5_000);
  });

  it("counts admission and an object's calls in flight against the pool's whole capacity", () => {
    const pool = JSON.stringify([
      { url: "http://a/v1", maxConcurrency: 12 },
      { url: "http://b/v1", maxConcurrency: 20 },
    ]);
    const config = readConfig({ JUDGE_ENDPOINTS: pool } as never);
    expect([config.maxConcurrency, config.maxRunning, config.maxInFlight]).toEqual([32, 128, 32]);
    expect(readConfig({ JUDGE_ENDPOINTS: pool, JUDGE_MAX_RUNNING: "10" } as never).maxRunning).toBe(10);
    // a refused pool is no pool, and says why
    const bad = readConfig({ JUDGE_ENDPOINTS: "[]" } as never);
    expect(bad.pool).toBeNull();
    expect(bad.poolError).toMatch(/JUDGE_ENDPOINTS: .*no endpoint/);
  });
});
