import { defineConfig } from "vitest/config";

/**
 * The integration tier (`pnpm --filter @voar/hono-edge test:integration`): tests that need a real Redis
 * (`REDIS_URL`, default redis://127.0.0.1:6379), real sockets and the other runtimes (workerd through
 * miniflare, Deno, Bun). Files end in `.integration.ts`, so the unit tier never picks them up. One file at
 * a time: they start servers and processes, and the machine has two cores.
 */
export default defineConfig({
  test: {
    include: ["test/**/*.integration.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    fileParallelism: false,
  },
});
