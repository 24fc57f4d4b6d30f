import { describe, expect, it } from "vitest";
import { publicOrigin } from "../../../src/api/public-origin";
import { ProblemError } from "../../../src/platform/problems";

describe("the origin this service's links are built on", () => {
  it("is PUBLIC_URL's origin when it is set, whatever the request names", () => {
    expect(publicOrigin("https://grading.example.edu", "https://attacker.example/v1/x")).toBe("https://grading.example.edu");
    expect(publicOrigin(" https://grading.example.edu/some/path/ ", "https://attacker.example/")).toBe("https://grading.example.edu");
    expect(publicOrigin("http://127.0.0.1:8787", "https://attacker.example/")).toBe("http://127.0.0.1:8787");
  });

  it("is the request's own origin only when PUBLIC_URL is unset (local development)", () => {
    expect(publicOrigin(undefined, "http://127.0.0.1:8787/v1/x?y")).toBe("http://127.0.0.1:8787");
    expect(publicOrigin("", "http://localhost:8787/")).toBe("http://localhost:8787");
  });

  it("refuses a PUBLIC_URL that is no http(s) URL, naming the variable and never its value", () => {
    for (const bad of ["sk-live-123456", "ftp://files.example", "javascript:alert(1)", "https://user:pw@grading.example.edu"]) {
      let caught: unknown;
      try {
        publicOrigin(bad, "http://localhost/");
      } catch (err) {
        caught = err;
      }
      expect(caught, bad).toBeInstanceOf(ProblemError);
      expect((caught as ProblemError).detail).toContain("PUBLIC_URL");
      expect((caught as ProblemError).detail).not.toContain(bad.slice(0, 8));
      expect((caught as ProblemError).status).toBe(503);
    }
  });
});
