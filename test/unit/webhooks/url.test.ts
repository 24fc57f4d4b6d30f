import { describe, expect, it } from "vitest";
import { maxWebhookUrlChars, webhookUrlErrors, webhookUrlProblem, withoutCredentials } from "../../../src/webhooks/url";

// issue 11, defect 3: collections took user:pass@ URLs, javascript:, http://2130706433:PORT and a
// 5,000-character URL; the policy below is the one every entry point and the delivery apply
describe("the webhook URL policy", () => {
  const strict = (url: string) => webhookUrlProblem(url, false);
  const local = (url: string) => webhookUrlProblem(url, true);

  it("accepts https anywhere, and plain http only to localhost or 127.0.0.1 when insecure webhooks are allowed", () => {
    for (const url of [
      "https://hooks.example.com/x?y=1",
      "https://8.8.8.8:8443/hook",
      "https://[2606:4700:4700::1111]/hook",
      "HTTPS://Hooks.Example.com",
      "https://bücher.example/hook",
    ]) {
      expect(strict(url), url).toBeNull();
    }
    for (const url of ["http://127.0.0.1:8080/x", "http://localhost/x", "http://LOCALHOST:1/x"]) {
      expect(local(url), url).toBeNull();
      expect(strict(url), url).toMatch(/https/);
    }
    for (const url of ["http://10.0.0.1/x", "http://example.com/x", "http://[::1]/x", "http://127.0.0.2/x", "http://localhost./x"]) {
      expect(local(url), url).toMatch(/only to localhost or 127.0.0.1/);
    }
  });

  it("refuses credentials in any form", () => {
    for (const url of [
      "http://user:pass@127.0.0.1:9/x",
      "https://a:b@example.com/",
      "https://a@example.com/",
      "https://:pw@example.com/",
      "https://x@y@example.com/",
    ]) {
      expect(local(url), url).toMatch(/credentials/);
    }
  });

  it("refuses every scheme but http and https", () => {
    for (const url of [
      "javascript:alert(1)",
      "JavaScript:alert(1)",
      "data:text/plain,x",
      "file:///etc/passwd",
      "ftp://127.0.0.1/x",
      "ws://127.0.0.1/x",
      "mailto:a@example.com",
    ]) {
      expect(local(url), url).toMatch(/must be an https URL/);
    }
  });

  it("refuses an IP address written as one number, in hex or octal, or shortened (all read as 127.0.0.1)", () => {
    for (const url of [
      "http://2130706433:9/x",
      "https://2130706433/x",
      "http://0x7f000001/x",
      "http://0X7F.0.0.1/x",
      "http://017700000001/x",
      "http://0177.0.0.1/x",
      "http://127.1/x",
      "http://127.0.1/x",
      "http://127.0.0.1./x",
      "http://%31%32%37.0.0.1/x",
      "http://１２７.０.０.１/x",
      "https://[0:0:0:0:0:0:0:1]/x",
      "https://[::ffff:127.0.0.1]/x",
      "http:2130706433/x",
      "http:////2130706433/x",
    ]) {
      expect(local(url), url).toMatch(/IP address host in its usual form/);
    }
  });

  it("refuses a URL longer than the bound, and text the parser would silently rewrite", () => {
    const base = "https://hooks.example.com/";
    expect(strict(base + "a".repeat(maxWebhookUrlChars - base.length))).toBeNull();
    expect(strict(base + "a".repeat(maxWebhookUrlChars - base.length + 1))).toBe(`must be at most ${maxWebhookUrlChars} characters`);
    expect(strict(base + "a".repeat(5_000))).toMatch(/at most 2048/);
    for (const url of [
      " https://hooks.example.com/",
      "https://hooks.example.com/ x",
      "https://hooks.\texample.com/",
      "http://127.0.0.1\n/x",
      "https:\\\\hooks.example.com\\x",
      "https://hooks.example.com/\u0000",
    ]) {
      expect(local(url), JSON.stringify(url)).toMatch(/spaces, control characters or backslashes/);
    }
    expect(strict("")).toBe("must not be empty");
    expect(strict("::")).toBe("is not a URL");
    expect(strict("hooks.example.com/x")).toBe("is not a URL");
  });

  it("names every refused field of a request, under the deployment's setting", () => {
    const urls: [string, string | undefined][] = [
      ["webhook.url", "http://127.0.0.1/x"],
      ["items[0].webhook.url", undefined],
      ["items[1].webhook.url", "https://ok.example/"],
    ];
    expect(webhookUrlErrors(urls, true)).toEqual([]);
    expect(webhookUrlErrors(urls, false)).toEqual([{ field: "webhook.url", reason: expect.stringMatching(/https/) }]);
  });
});

describe("a webhook URL shown back", () => {
  it("never carries credentials, whatever was stored", () => {
    expect(withoutCredentials("http://user:pass@127.0.0.1:9/x?q=1#f")).toBe("http://127.0.0.1:9/x?q=1#f");
    expect(withoutCredentials("https://token@hooks.example.com/x")).toBe("https://hooks.example.com/x");
    expect(withoutCredentials("http://u:p@[bad/x")).toBe("http://[bad/x");
    expect(withoutCredentials("http://a@b@c:p@ex ample/x")).toBe("http://ex ample/x");
    // left exactly as given when there is nothing to remove
    expect(withoutCredentials("https://Hooks.example.com")).toBe("https://Hooks.example.com");
    expect(withoutCredentials("javascript:alert(1)")).toBe("javascript:alert(1)");
  });
});
