import { exports } from "cloudflare:workers";
import type { CliIo } from "../../src/cli/io";

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
