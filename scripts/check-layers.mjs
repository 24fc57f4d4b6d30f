// `npm run lint` runs this after Biome: the folders of src/ (and durable-objects/) stand in layers, and a
// folder may import only from a folder of a lower layer. Biome's noImportCycles sees files; this sees
// folders, so a new import that runs back up (metrics reaching into teacher, say) fails the lint even
// when no file-level cycle exists yet. Loose files in src/ are refused too: every file has a folder.
import fs from "node:fs";
import path from "node:path";

/** Bottom to top. A folder imports its own files and the folders of the layers below, nothing else. */
export const LAYERS = [
  ["src/contract"],
  ["src/random", "src/gate", "src/limits", "src/collections", "src/client"],
  ["src/ratings", "src/metrics"],
  ["src/core"],
  ["src/model", "src/teacher"],
  // src/lti: LTI 1.3's pure rules (claims, login, tool keys, pages). Above model, whose collections deep
  // linking will describe; below platform and db, which may read its key list and launch shapes.
  ["src/judge", "src/live", "src/lti"],
  ["src/platform"],
  ["src/db"],
  ["src/webhooks", "src/estimate"],
  ["src/evaluations"],
  ["src/api", "src/cli", "durable-objects"],
  ["src/worker"],
];

const IMPORT = /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)|^import\s+["']([^"']+)["']/gm;

/** The folder (layer unit) a repository path belongs to, or null when it is outside the checked tree. */
export function unitOf(file) {
  const parts = file.split("/");
  if (parts[0] === "durable-objects") return "durable-objects";
  if (parts[0] === "src") return parts.length > 2 ? `src/${parts[1]}` : file;
  return null;
}

/**
 * The problems of a tree: `files` maps each repository path (src/... and durable-objects/...) to its
 * source. Pure, so the rule is tested on made-up trees as well as on this one.
 */
export function layerProblems(files, layers = LAYERS) {
  const rank = new Map(layers.flatMap((folders, i) => folders.map((f) => [f, i])));
  const problems = [];
  for (const [file, source] of files) {
    const from = unitOf(file);
    if (from === null) continue;
    if (from === file) {
      problems.push(`${file}: a loose file in src/; put it in the folder of its role`);
      continue;
    }
    if (!rank.has(from)) {
      problems.push(`${file}: its folder ${from} has no layer; add it to LAYERS in scripts/check-layers.mjs`);
      continue;
    }
    for (const m of source.matchAll(IMPORT)) {
      const spec = m[1] ?? m[2] ?? m[3];
      if (!spec.startsWith(".")) continue;
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
      const to = unitOf(target);
      if (to === null || to === from) continue;
      if (!rank.has(to)) {
        problems.push(`${file}: imports ${spec}, in ${to}, which has no layer`);
      } else if (rank.get(to) >= rank.get(from)) {
        const how = rank.get(to) === rank.get(from) ? "beside it in its layer" : "above it";
        problems.push(`${file}: imports ${spec}: ${to} is ${how}, and ${from} may import only from lower layers`);
      }
    }
  }
  return problems;
}

/** This repository's src/ and durable-objects/ TypeScript, as the map layerProblems reads. */
export function readTree(root) {
  const files = new Map();
  const walk = (dir) => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(rel);
      else if (/\.(ts|mjs|js)$/.test(entry.name)) files.set(rel, fs.readFileSync(path.join(root, rel), "utf8"));
    }
  };
  walk("src");
  walk("durable-objects");
  return files;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const problems = layerProblems(readTree(path.resolve(import.meta.dirname, "..")));
  for (const p of problems) console.error(p);
  if (problems.length > 0) {
    console.error(`check-layers: ${problems.length} import(s) against the layers`);
    process.exit(1);
  }
  console.log(`check-layers: every import runs down the ${LAYERS.length} layers`);
}
