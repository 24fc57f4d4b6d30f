// The installable package (npm run build): dist/client and dist/contract as tsc emits them (ESM and
// .d.ts, one file per module), and the CLI bundled into dist/cli/knockout-judge.js: it reaches the
// service's pure modules (metrics, ratings, the exam), whose extensionless imports Node cannot run
// as they are. zod stays a dependency, imported, never inlined.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";

const root = path.resolve(import.meta.dirname, "..");
const dist = path.join(root, "dist");
rmSync(dist, { recursive: true, force: true });

execFileSync(process.execPath, [path.join(root, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.build.json"], {
  cwd: root,
  stdio: "inherit",
});

// tsc rewrites `./x.ts` to `./x.js` in the JavaScript but keeps `.ts` in the declarations, which a
// TypeScript user under "moduleResolution": "node16" would then fail to follow
for (const entry of readdirSync(dist, { recursive: true })) {
  const file = path.join(dist, String(entry));
  if (!file.endsWith(".d.ts")) continue;
  const text = readFileSync(file, "utf8");
  writeFileSync(file, text.replace(/(from\s+|import\()(["'])(\.{1,2}\/[^"']+)\.ts\2/g, "$1$2$3.js$2"));
}

await build({
  entryPoints: [path.join(root, "src/cli/bin.ts")],
  outfile: path.join(dist, "cli/knockout-judge.js"),
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node22",
  external: ["zod"],
  legalComments: "none",
  logLevel: "warning",
});
