#!/usr/bin/env node
// voar-server: the Voar service on Node, from the built package (dist/node.js). Configured by a JSON file
// (VOAR_CONFIG_FILE) and VOAR_* variables; see the package README. In the monorepo, without a build:
// `pnpm --filter @voar/hono-edge start`.
await import("../dist/node.js");
