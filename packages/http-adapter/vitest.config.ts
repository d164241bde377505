import { defineConfig } from "vitest/config";
import { unitTier } from "../../vitest.shared.js";

export default defineConfig({
  test: unitTier({ config: import.meta.url, include: ["test/**/*.test.ts"], exclude: ["test/integration/**"] }),
});
