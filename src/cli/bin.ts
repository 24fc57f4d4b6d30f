#!/usr/bin/env node
// The installed command (package.json `bin`, built to dist/cli/knockout-judge.js). In a clone,
// bin/knockout-judge.mjs runs src/cli/main.ts itself, with no build.
import { main } from "./main.ts";

process.exitCode = await main(process.argv.slice(2));
