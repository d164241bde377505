#!/usr/bin/env node
// voar-server: the Voar service on Node, i.e. the Node entry of @voar/hono-edge, which reads its configuration
// (VOAR_CONFIG_FILE, VOAR_* variables) and serves; see packages/hono-edge/README.md. This package depends on
// what that entry may load, so the embedded simulator and the Redis store work here whatever the configuration.
// In the repository, from the sources: `pnpm --filter @voar/server start`; deployed: apps/server/README.md.
await import("@voar/hono-edge/node");
