import { defineConfig } from "vitest/config";

/**
 * Integration tier: the demo server on a real port, the CLI against it over HTTP, and the page in real
 * Chromium (test/e2e). Files run one after another: each starts its own server.
 */
export default defineConfig({
  test: {
    include: ["test/integration/**/*.test.ts", "test/e2e/**/*.test.ts"],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    // The CLI colors its output on terminals and under CI=true; its tests read plain text.
    env: { NO_COLOR: "1" },
  },
});
