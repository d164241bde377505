#!/usr/bin/env node
// voar-server: the Voar service on Node, from the built package (dist/node.js). Configured by a JSON file
// (VOAR_CONFIG_FILE) and VOAR_* variables; see the package README. In the monorepo, without a build:
// `pnpm --filter @voar/hono-edge start`. The same entry is the export `@voar/hono-edge/node`; the Docker image runs
// it from apps/server, which provides the optional packages (the simulator, ioredis).
await import("../dist/node.js");
