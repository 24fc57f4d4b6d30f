// The bench writes its own results: docs/bench-results.md holds, for each target, what its last run
// printed, with when, on which commit and on what machine. A run of some targets (`--only`) replaces
// their sections and keeps the others, so the file always shows the latest figure of every target and
// no figure is ever typed in by hand.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const FILE = path.resolve(import.meta.dirname, "../docs/bench-results.md");
const HEAD = `# Bench results

Written by \`npm run bench\` itself: each section is what one target printed at its last run, with the
commit and the machine. What each target measures, and its goal: [benchmarks.md](benchmarks.md). The
figures come from judge-sim (\`../shared/tools/judge-sim.mjs\`), a stand-in judge with a capacity model:
they show the service's aggregation and its overheads, not a real model's behaviour.
`;

/** Sections of an existing results file, by target, in file order. */
export function readSections(text) {
  const sections = new Map();
  for (const m of text.matchAll(/<!-- bench:([\w-]+) -->\n([\s\S]*?)<!-- \/bench:\1 -->/g)) sections.set(m[1], m[2]);
  return sections;
}

/** The file with `fresh` sections put in place of (or after) the old ones. */
export function mergeSections(oldText, fresh) {
  const sections = readSections(oldText);
  for (const [name, body] of fresh) sections.set(name, body);
  const parts = [...sections].map(([name, body]) => `<!-- bench:${name} -->\n${body}<!-- /bench:${name} -->\n`);
  return `${HEAD}\n${parts.join("\n")}`;
}

/**
 * Records what the bench prints, target by target: `begin(name)` starts a target's section, and every
 * console.log line until the next `begin` goes into it. `write()` merges them into the results file.
 */
export function recorder(command) {
  const lines = new Map();
  let current = null;
  const log = console.log;
  console.log = (...args) => {
    log(...args);
    if (current) lines.get(current).push(args.map(String).join(" "));
  };
  const commit = (() => {
    try {
      const head = execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
      // a run on a tree with changes not yet committed says so: its figures are not the commit's
      const changed = execFileSync("git", ["status", "--porcelain", "--", ".", ":!docs/bench-results.md"], { encoding: "utf8" }).trim();
      return changed ? `${head} with uncommitted changes` : head;
    } catch {
      return "unknown";
    }
  })();
  return {
    begin(name) {
      current = name;
      lines.set(name, []);
    },
    /** What is printed from now on goes to no section (the closing summary repeats the sections' rows). */
    end() {
      current = null;
    },
    write() {
      console.log = log;
      if (lines.size === 0) return;
      const when = new Date().toISOString().slice(0, 16).replace("T", " ");
      const machine = `${os.cpus().length} cores (${os.cpus()[0]?.model ?? "?"}), Node ${process.version}`;
      const fresh = new Map(
        [...lines].map(([name, printed]) => [
          name,
          `## ${name}\n\n${when} UTC, commit ${commit}, ${machine}: \`${command}\`\n\n\`\`\`\n${printed.join("\n").trim()}\n\`\`\`\n`,
        ]),
      );
      const old = fs.existsSync(FILE) ? fs.readFileSync(FILE, "utf8") : "";
      fs.writeFileSync(FILE, mergeSections(old, fresh));
      log(`\nresults written to ${path.relative(process.cwd(), FILE)}: ${[...lines.keys()].join(", ")}`);
    },
  };
}
