import { defineConfig } from "vitest/config";

/** Tests that need real sockets (loopback servers): `pnpm test:integration`. */
export default defineConfig({
  test: { include: ["test/integration/**/*.test.ts"], testTimeout: 60_000 },
});
