import { exports } from "cloudflare:workers";
import type { CliOptions } from "../../src/cli/args";
import type { CliIo } from "../../src/cli/io";
import { parseVariant } from "../../src/cli/variants";

const worker = (exports as unknown as { default: Fetcher }).default;

/**
 * The CLI's I/O for a test: files in memory (`files`, read and written in place), what it prints kept
 * in `printed`, and its requests sent to this worker, as `knockout-judge` sends them to a deployment.
 */
export function cliIo(files: Record<string, string>) {
  const printed = { out: "", err: "" };
  const cli: CliIo = {
    out: (t) => void (printed.out += t),
    err: { write: (t: string) => void (printed.err += t) },
    env: {},
    readFile: (p) => files[p],
    writeFile: (p, t) => void (files[p] = t),
    appendFile: (p, t) => void (files[p] = (files[p] ?? "") + t),
    fetch: (url, init) => worker.fetch(new Request(url, init)),
  };
  return { cli, printed };
}

/**
 * `knockout-judge eval DATASET --url http://service.test --key KEY --concurrency 2 --bootstrap 0 --out
 * run.json` as parseCli reads it (workerd has no node:util parseArgs, so it is built here), with
 * `overrides` for the flags a test adds.
 */
export function cliOptions(key: string, dataset: string, overrides: Partial<CliOptions> = {}): CliOptions {
  const variant = parseVariant("knockout", true);
  if (!variant.ok) throw new Error("bad test options");
  return {
    datasets: [dataset],
    url: "http://service.test",
    key,
    variants: [variant.variant],
    debias: true,
    template: null,
    maxScore: null,
    limit: null,
    includeIgnored: false,
    examinee: "auto",
    concurrency: 2,
    seed: 1,
    bootstrap: 0,
    perQuestion: false,
    batch: false,
    dryRun: false,
    out: "run.json",
    panel: null,
    failUnder: [],
    format: "table",
    ...overrides,
  };
}
