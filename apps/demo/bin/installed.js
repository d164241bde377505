// The demo's bins run from the repository, whose packages pnpm installs (npm does not: `npm install` there
// stops, see the root package.json's `engines.npm`). Without that install, `npm run demo` or `node bin/...`
// would die on a missing module with a stack; this says instead, in one line, what to run.
import { existsSync, readFileSync } from "node:fs";

const manifest = (url) => JSON.parse(readFileSync(new URL(url, import.meta.url), "utf8"));

/** Exits 1 with the repository's install sentence when a dependency of the demo is not installed. */
export const exitUnlessInstalled = () => {
  const missing = Object.keys(manifest("../package.json").dependencies ?? {}).filter((name) => !existsSync(new URL(`../node_modules/${name}/package.json`, import.meta.url)));
  if (missing.length === 0) return;
  console.error(`voar: the demo's packages are not installed (${missing[0]}...). ${manifest("../../../package.json").engines.npm}`);
  process.exit(1);
};
