#!/usr/bin/env node
// Starts the demo (the service, the page and the CLI's target) through tsx, so it needs no build step.
import { exitUnlessInstalled } from "./installed.js";
exitUnlessInstalled();
const { register } = await import("tsx/esm/api");
register();
await import("../src/server/main.ts");
