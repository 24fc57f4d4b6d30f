#!/usr/bin/env node
// The command-line tool from a clone, with no build (the installed package runs dist/cli/knockout-judge.js,
// built from src/cli/bin.ts by `npm run build`). It runs the project's TypeScript directly (Node >= 23.6 strips types), with a
// resolve hook for the extensionless and ".js" relative imports that the Worker's bundler accepts.
import "../scripts/ts-resolve.mjs";

const { main } = await import("../src/cli/main.ts");
process.exitCode = await main(process.argv.slice(2));
