import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { framedBy, pagePolicy } from "../../../src/api/content-policy";

describe("the pages' Content-Security-Policy", () => {
  it("is the one public/_headers sends with every static page", () => {
    const headers = fs.readFileSync(path.join(import.meta.dirname, "../../../public/_headers"), "utf8");
    expect(headers.match(/^\s*Content-Security-Policy:\s*(.+)$/m)?.[1].trim()).toBe(pagePolicy);
  });

  // issue 11, defect 11: the iframe page sent `frame-ancestors …` alone, dropping every other directive
  it("keeps every directive when it lets the collecting sites frame a page, and only frame-ancestors changes", () => {
    expect(framedBy(pagePolicy, ["https://a.example", "http://b.example:8080"])).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors https://a.example http://b.example:8080",
    );
    expect(framedBy(pagePolicy, [])).toBe(`${pagePolicy.replace("frame-ancestors 'none'; ", "")}; frame-ancestors 'none'`);
    expect(framedBy("default-src 'none';FRAME-ANCESTORS *; ", ["https://a.example"])).toBe(
      "default-src 'none'; frame-ancestors https://a.example",
    );
  });
});
