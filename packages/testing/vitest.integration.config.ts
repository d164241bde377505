import { defineConfig } from "vitest/config";

/**
 * Tests that need real sockets (loopback servers), and the pack-and-install test of every published package
 * (test/pack: builds, packs, installs with npm, needs the registry and Redis): `pnpm test:integration`.
 */
export default defineConfig({
  test: { include: ["test/integration/**/*.test.ts", "test/**/*.integration.ts"], testTimeout: 60_000 },
});
