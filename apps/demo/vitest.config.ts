import { defineConfig } from "vitest/config";
import { unitTier } from "../../vitest.shared.js";

/** Unit tier: no server, no browser, virtual time. */
export default defineConfig({
  test: unitTier({
    config: import.meta.url,
    include: ["test/**/*.test.ts"],
    exclude: ["test/e2e/**", "test/integration/**"],
    // The CLI colors its output on terminals and under CI=true; its tests read plain text.
    env: { NO_COLOR: "1" },
  }),
});
