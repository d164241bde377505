import { defineConfig } from "vitest/config";
import { UNIT_TIMEOUTS } from "../../vitest.shared.js";

/** Unit tier: no server, no browser, virtual time. */
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    exclude: ["test/e2e/**", "test/integration/**", "**/node_modules/**"],
    ...UNIT_TIMEOUTS,
    // The CLI colors its output on terminals and under CI=true; its tests read plain text.
    env: { NO_COLOR: "1" },
  },
});
