/**
 * Runs before each unit test file (vitest.shared.ts). Test files share their worker's modules, so each one
 * leaves the next what it found: real timers, no spy, no stubbed global or environment variable, and the
 * runtime's own `Request` and `Response` (@hono/node-server's request listener puts its lighter ones in their
 * place when a file serves an app on node:http; a `Response.redirect` of those has headers that can change).
 */
import { afterAll, vi } from "vitest";

type Fetch = { readonly Request: typeof Request; readonly Response: typeof Response };
const store = globalThis as { __voarFetchClasses?: Fetch };
// The first file's setup sees the runtime's own classes; later files keep what it saw.
const original = (store.__voarFetchClasses ??= { Request: globalThis.Request, Response: globalThis.Response });

afterAll(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
  globalThis.Request = original.Request;
  globalThis.Response = original.Response;
});
