import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";

// The wire contract is the one thing the service, the typed client and the web front share: it must
// not pull in the service (hono, drizzle, the Workers' `Env`), and the client and the pages must not
// reach past it into the service's files, or the installed package would drag the service along.

const root = path.resolve(import.meta.dirname, "../../..");
const src = path.join(root, "src");
const contract = path.join(src, "contract");

function files(dir: string, ext: RegExp, skip: string[] = []): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && ext.test(e.name))
    .map((e) => path.join(e.parentPath, e.name))
    .filter((f) => !skip.some((s) => f.startsWith(s)));
}

/** Every module specifier a file names: static and dynamic imports, re-exports, and JSDoc `import("…")` types. */
function specifiers(text: string): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(/\b(?:from|import)\s*\(?\s*["']([^"']+)["']/g)) found.add(m[1]);
  return [...found];
}

/** Where a relative specifier of `file` lands, or null for a package. */
function target(file: string, specifier: string): string | null {
  return specifier.startsWith(".") ? path.resolve(path.dirname(file), specifier) : null;
}

function inside(dir: string, p: string): boolean {
  return p === dir || p.startsWith(dir + path.sep);
}

/** The imports of `sources` that break the rule, as "file: specifier". */
function offending(sources: string[], allowed: (file: string, specifier: string) => boolean): string[] {
  return sources.flatMap((file) =>
    specifiers(readFileSync(file, "utf8"))
      .filter((s) => !allowed(file, s))
      .map((s) => `${path.relative(root, file)}: ${s}`),
  );
}

describe("the wire contract's boundary", () => {
  test("the reader finds every kind of import", () => {
    const text = [
      'import { z } from "zod";',
      'export * from "./limits.ts";',
      'import type { X } from "../api/app";',
      '/** @typedef {import("../../src/evaluation").Outcome} Outcome */',
      'const m = await import("node:fs");',
    ].join("\n");
    expect(specifiers(text)).toEqual(["zod", "./limits.ts", "../api/app", "../../src/evaluation", "node:fs"]);
  });

  test("src/contract imports only zod and its own files", () => {
    const sources = files(contract, /\.ts$/);
    expect(sources.length).toBeGreaterThan(5);
    const own = (file: string, s: string) => {
      const to = target(file, s);
      return s === "zod" || (to !== null && inside(contract, to));
    };
    expect(offending(sources, own)).toEqual([]);
  });

  test("the typed client and the web front import from src/ only through src/contract", () => {
    const sources = [
      ...files(path.join(src, "client"), /\.ts$/),
      ...files(path.join(root, "public"), /\.js$/, [path.join(root, "public", "vendor")]),
    ];
    expect(sources.some((f) => f.endsWith(path.join("public", "js", "grade.js")))).toBe(true);
    const throughContract = (file: string, s: string) => {
      const to = target(file, s);
      if (to === null) return s === "zod" || !s.includes("/src/");
      return !inside(src, to) || inside(contract, to) || inside(path.join(src, "client"), to);
    };
    expect(offending(sources, throughContract)).toEqual([]);
  });
});
