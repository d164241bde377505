import { defineConfig } from "vitest/config";
import { UNIT_TIMEOUTS } from "../../vitest.shared.js";

export default defineConfig({
  test: { include: ["test/**/*.test.ts"], exclude: ["test/integration/**", "**/node_modules/**"], ...UNIT_TIMEOUTS },
});
