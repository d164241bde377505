/**
 * A test-only preload (`node --expose-gc --import tsx --import ./test/support/heap-probe.ts src/node.ts`): over the
 * process's IPC channel, `{ type: "heap" }` is answered with the heap used after a full collection (twice, a second
 * apart, so that finalizers and V8's background freeing are done). No request reaches the app: an idle instance
 * stays idle while the test reads its memory.
 */
const gc = (globalThis as { gc?: () => void }).gc;

process.on("message", (m: { type?: string }) => {
  if (m.type !== "heap") return;
  gc?.();
  gc?.();
  setTimeout(() => {
    gc?.();
    process.send?.({ type: "heap", heapUsed: process.memoryUsage().heapUsed, collected: gc !== undefined });
  }, 1_000).unref();
});
// The channel must not keep the process alive after SIGTERM.
process.channel?.unref();
