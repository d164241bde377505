#!/usr/bin/env node
// Runs the TypeScript CLI through tsx, so the demo needs no build step.
import { exitUnlessInstalled } from "./installed.js";
exitUnlessInstalled();
const { register } = await import("tsx/esm/api");
register();
const { main } = await import("../src/cli/main.ts");
process.exitCode = await main(process.argv.slice(2));
