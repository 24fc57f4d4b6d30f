import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { anchorOf, anchors, docFiles, projectRoot, readDoc, relativeLinks } from "../../support/docs";

describe("the README and docs/", () => {
  it("the README stays a front door: at most about 250 lines", () => {
    expect(readDoc("README.md").split("\n").length).toBeLessThanOrEqual(260);
  });

  it("every relative link resolves to a file, and every anchor to a heading of it", () => {
    const broken: string[] = [];
    for (const file of docFiles()) {
      for (const link of relativeLinks(readDoc(file))) {
        const target = link.target === "" ? file : path.posix.join(path.posix.dirname(file), link.target);
        if (!fs.existsSync(path.join(projectRoot, target))) {
          broken.push(`${file}: ${link.text} (no file ${target})`);
          continue;
        }
        if (link.anchor !== null && target.endsWith(".md") && !anchors(readDoc(target)).has(link.anchor))
          broken.push(`${file}: ${link.text} (no heading #${link.anchor} in ${target})`);
      }
    }
    expect(broken).toEqual([]);
  });

  it("the README links to every page of docs/", () => {
    const linked = new Set(relativeLinks(readDoc("README.md")).map((l) => l.target));
    for (const page of docFiles().filter((f) => f.startsWith("docs/") && f !== "docs/bench-results.md"))
      expect(linked.has(page), page).toBe(true);
  });

  it("reads GitHub's anchors the way GitHub writes them", () => {
    expect(anchorOf("`GET /v1/evaluations/:id`: the result")).toBe("get-v1evaluationsid-the-result");
    expect(anchorOf("A pool of judge servers: `JUDGE_ENDPOINTS`")).toBe("a-pool-of-judge-servers-judge_endpoints");
    expect(anchorOf("Streamed calls and Cloudflare's six connections")).toBe("streamed-calls-and-cloudflares-six-connections");
  });
});

describe("docs/api.md's table of POST /v1/evaluations", () => {
  it("has a row for every field the request takes, and none the request refuses", async () => {
    const { evaluationFields } = await import("../../../src/contract");
    const api = readDoc("docs/api.md");
    const start = api.indexOf("| field | type | default | |");
    const table = api.slice(start, api.indexOf("\n\n", start));
    const rows = [...table.matchAll(/^\| `(\w+)` \|/gm)].map((m) => m[1]);
    expect(rows.length).toBeGreaterThan(0);
    expect(Object.keys(evaluationFields.shape).filter((k) => !rows.includes(k))).toEqual([]);
    expect(rows.filter((k) => !(k in evaluationFields.shape))).toEqual([]);
  });
});
